// akker fields import: read, review against the farm, and (unless --dry-run) write.
import { farmFields } from './akker-reads.js';
import { connect, type ConnectionOptions } from './connection.js';
import { planCrops } from './crop-plan.js';
import type { CrsCode } from './crs.js';
import { CommandFailure, EXIT } from './failures.js';
import type { Io } from './io.js';
import { isRvoExport, parcelsOf } from './parcels.js';
import { readImportFile } from './read/read-file.js';
import { countsOf, refusals, reviewLine, reviewTable, summary } from './report.js';
import { review } from './review.js';
import { carryOut } from './writes.js';

export interface ImportOptions extends ConnectionOptions {
  farm: string;
  year: number;
  dryRun: boolean;
  update: boolean;
  deleteMissing: boolean;
  nameFrom: string | undefined;
  start: string | undefined;
  crs: CrsCode | undefined;
}

export async function importFields(path: string, options: ImportOptions, io: Io): Promise<number> {
  const connection = connect(options, io.env, (seconds) => io.progress.rateLimited(seconds));
  const file = await readImportFile(path);
  const parcels = parcelsOf(file, options);
  const kind = isRvoExport(file) ? `${file.format}, an RVO Mijn Percelen export` : file.format;
  io.out(`${path}: ${kind}, ${parcels.length} feature${parcels.length === 1 ? '' : 's'}, in ${options.crs ?? file.crs ?? 'EPSG:4326'}\n`);
  for (const note of file.notes ?? []) io.out(`  ${note}\n`);
  if (options.deleteMissing && parcels.length === 0)
    throw new CommandFailure(`${path} has no features: with --delete-missing that would delete every field of the farm; nothing was sent`);

  const reviewed = review(parcels, await farmFields(connection, options.farm));
  const crops = await planCrops(connection, reviewed.parcels, options.year);
  const counts = countsOf(reviewed);
  io.out(`${reviewTable(reviewed, crops)}\n\n${reviewLine(counts)}\n`);
  // A feature not read may be a field of the farm that cannot be told apart from one the file lacks: delete none.
  const deleteMissing = options.deleteMissing && counts.refused === 0;
  if (options.deleteMissing && !deleteMissing)
    io.out(
      `--delete-missing: nothing deleted, as ${counts.refused} feature${counts.refused === 1 ? ' was' : 's were'} not read; fix ${counts.refused === 1 ? 'it' : 'them'} first\n`,
    );

  if (options.dryRun) {
    const refused = refusals(reviewed, crops, undefined);
    io.out(`dry run: nothing written\n${refused.map((line) => `  ${line}\n`).join('')}`);
    return refused.length === 0 ? EXIT.done : EXIT.someRefused;
  }
  const outcomes = await carryOut(
    connection,
    reviewed,
    crops,
    { farmId: options.farm, contentHash: file.contentHash, update: options.update, deleteMissing },
    io.progress,
  );
  const refused = refusals(reviewed, crops, outcomes);
  io.out(`${summary(counts, outcomes, { update: options.update, deleteMissing })}\n`);
  if (refused.length > 0) io.out(`refused ${refused.length}:\n${refused.map((line) => `  ${line}\n`).join('')}`);
  return refused.length === 0 ? EXIT.done : EXIT.someRefused;
}
