// akker farms list: the farms the key may see, to find the id an import or export needs.
import { listFarms } from './akker-reads.js';
import { connect, type ConnectionOptions } from './connection.js';
import { EXIT } from './failures.js';
import type { Io } from './io.js';

export async function listFarmsCommand(options: ConnectionOptions, io: Io): Promise<number> {
  const farms = await listFarms(connect(options, io.env));
  if (farms.length === 0) io.out('no farms\n');
  for (const farm of farms) io.out(`${farm.b_id_farm}  ${farm.b_name_farm}\n`);
  return EXIT.done;
}
