// Secrets every process on one database shares, such as the key of the change feed's cursors: a cursor
// one process hands out is read by another behind the same load balancer. Made once, by the first
// process that asks, and kept in the database, so there is nothing to configure or to keep in step.
import { eq } from 'drizzle-orm';
import type { Database } from './client.js';
import { firstRow } from './first-row.js';
import { serverSecrets } from './schema.js';
import { newSecret } from '../core/secrets.js';

/** The secret named `name`, made now if there is none yet; of two processes making it at once, one wins and both read it. */
export async function serverSecret(db: Database, name: string): Promise<Buffer> {
  await db.insert(serverSecrets).values({ name, secret: newSecret() }).onConflictDoNothing();
  // A statement of its own: it sees the row whichever process committed it.
  const rows = await db.select({ secret: serverSecrets.secret }).from(serverSecrets).where(eq(serverSecrets.name, name));
  return Buffer.from(firstRow(rows, `read of server secret ${name}`).secret, 'base64url');
}

/** `serverSecret`, read once per process and kept; a read that failed is tried again by the next caller. */
export function rememberedSecret(db: Database, name: string): () => Promise<Buffer> {
  let secret: Promise<Buffer> | undefined;
  return () =>
    (secret ??= serverSecret(db, name).catch((error: unknown) => {
      secret = undefined;
      throw error;
    }));
}
