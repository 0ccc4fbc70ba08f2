// A new embedded database is made in a short-lived process of its own. Creating one (PostgreSQL's
// initdb, run by PGlite) takes some 800 MB that PGlite keeps, and a thread that ends does not give
// all of it back to the system either (its allocator keeps freed pages); a process that exits does.
import { fork } from 'node:child_process';
import { extname } from 'node:path';

export interface CreationMessage {
  /** The new database's files as a tarball (PGlite's dumpDataDir), when it was made in memory. */
  image?: Uint8Array;
  error?: string;
}

function creationProcess(args: string[]) {
  const extension = extname(new URL(import.meta.url).pathname);
  const script = new URL(`./pglite-create-process${extension}`, import.meta.url);
  // TypeScript (npm start): the child loads tsx first, as the parent did.
  const execArgv = extension === '.ts' ? ['--import', import.meta.resolve('tsx')] : [];
  return fork(script, args, { execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
}

function run(args: string[]): Promise<CreationMessage> {
  return new Promise((resolve, reject) => {
    const child = creationProcess(args);
    let stderr = '';
    let message: CreationMessage = {};
    // Piped (stdio above), so there is a stream to read.
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    child.on('message', (received: CreationMessage) => (message = received));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0 && message.error === undefined) resolve(message);
      else reject(new Error(`The embedded database could not be created: ${message.error ?? (stderr.trim() || `exit code ${code}`)}`));
    });
  });
}

/** Creates an empty database in the folder `pgdata`. */
export async function createDataDir(pgdata: string): Promise<void> {
  await run([pgdata]);
}

/** Creates an empty database in memory and answers its files, for `loadDataDir`. */
export async function createImage(): Promise<Blob> {
  const { image } = await run([]);
  if (!image) throw new Error('The embedded database could not be created: no image came back.');
  return new Blob([image as Uint8Array<ArrayBuffer>]);
}
