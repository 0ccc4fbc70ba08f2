// The access epoch (db/schema.ts `accessEpoch`): a counter that every change able to take access away
// moves on, in the change's own transaction. A process sharing the PostgreSQL server remembers a key as
// active, or a user's role on a farm, together with the epoch it read in the same statement; as long as a
// later statement reads the same epoch, no such change has committed in between, so the remembered answer
// is still exact and the statement need not check keys and roles again.
import { sql, type Placeholder } from 'drizzle-orm';

/** The value of the counter, as text: a bigint, compared for equality only. */
export type AccessEpoch = string;

/** A SQL expression for the current epoch, read in the statement's own snapshot. */
export const currentAccessEpoch = sql<AccessEpoch>`(select value::text from access_epoch)`;

/** A boolean SQL expression: is the current epoch still `epoch` (compared as text, as it is remembered)? */
export const accessEpochStill = (epoch: Placeholder) => sql`${currentAccessEpoch} = ${epoch}`;
