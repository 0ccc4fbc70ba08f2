// The shapefile parts of a .zip, unpacked with yauzl within bounds: the sizes its directory declares are checked
// (in all, and each entry's packing ratio) before anything is unpacked, and each entry is read as a stream that
// yauzl stops when it grows past its declared size, so a .zip that lies about its sizes cannot fill memory either.
import { basename } from 'node:path';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';
import { CommandFailure } from '../failures.js';
import { MAX_PACKING_RATIO, MAX_READ_BYTES, megabytes, RATIO_FROM_BYTES } from './limits.js';

/** The parts of a shapefile a reader uses; anything else in the .zip is not unpacked. */
const PARTS = ['.shp', '.dbf', '.prj', '.cpg'];

const wanted = (entry: Entry) => {
  const path = entry.fileName.toLowerCase();
  return !path.endsWith('/') && !basename(path).startsWith('.') && !path.startsWith('__macosx/') && PARTS.some((p) => path.endsWith(p));
};

function entriesOf(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      if (wanted(entry)) entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

function unpack(zip: ZipFile, entry: Entry): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(error);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}

function checkDeclaredSizes(name: string, entries: Entry[]) {
  const total = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (total > MAX_READ_BYTES)
    throw new CommandFailure(
      `${name}: the .zip unpacks to ${megabytes(total)}, more than the ${megabytes(MAX_READ_BYTES)} an import reads`,
    );
  for (const entry of entries) {
    const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
    if (entry.uncompressedSize > RATIO_FROM_BYTES && ratio > MAX_PACKING_RATIO)
      throw new CommandFailure(
        `${name}: ${entry.fileName} unpacks to ${Math.round(ratio)} times its packed size (${megabytes(entry.uncompressedSize)}); ` +
          `a shapefile packs to at most 1/${MAX_PACKING_RATIO}: not unpacked`,
      );
  }
}

/** The .shp, .dbf, .prj and .cpg entries of a .zip by their path, their contents unpacked. */
export async function unpackShapefileParts(name: string, bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  let zip: ZipFile | undefined;
  try {
    zip = await new Promise<ZipFile>((resolve, reject) =>
      fromBuffer(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { lazyEntries: true }, (error, file) =>
        error ? reject(error) : resolve(file),
      ),
    );
    const entries = await entriesOf(zip);
    checkDeclaredSizes(name, entries);
    const parts = new Map<string, Uint8Array>();
    for (const entry of entries) parts.set(entry.fileName, await unpack(zip, entry));
    return parts;
  } catch (error) {
    if (error instanceof CommandFailure) throw error;
    throw new CommandFailure(`${name}: the .zip cannot be read: ${(error as Error).message}`);
  } finally {
    zip?.close();
  }
}
