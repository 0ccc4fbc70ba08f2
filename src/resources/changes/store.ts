// Reading a farm's change feed (written by the triggers of migrations 0009 and 0013).
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../db/client.js';
import { firstRow } from '../../db/first-row.js';
import { rfc3339Text } from '../../db/timestamps.js';
import { DomainError } from '../../core/domain-errors.js';
import type { Change, ChangeType } from './schemas.js';

type ChangeRow = {
  last_position: string;
  pruned_through: string | null;
  position: string | null;
  action: Change['action'];
  record_type: ChangeType;
  record_id: string;
  updated_at: string;
  removed: Change['removed'];
};

export interface ChangesRead {
  /** The entries read, in commit order. */
  entries: Array<Change & { position: number }>;
  /** The position to continue after: the last entry read, else where the read began. */
  next: number;
  hasMore: boolean;
  /** The last position of the feed: `after` past it was never handed out. */
  last: number;
}

/**
 * Up to `limit` entries of the farm's feed after position `after` (undefined: from the oldest kept), in one
 * statement, so that the feed's end, the retention horizon and the entries agree: one index range scan of
 * farm_changes_position_idx, and a probe of its last entry. Without `withMembers` the entries of roles are
 * passed over, so that `next` moves only with the entries read.
 */
export async function readChanges(
  db: Database,
  farmId: string,
  after: number | undefined,
  limit: number,
  withMembers: boolean,
): Promise<ChangesRead> {
  const rows = await queryRows<ChangeRow>(
    db,
    sql`
    select e.last_position::text as last_position, h.pruned_through::text as pruned_through, c.position::text as position,
           c.action, c.record_type, c.record_id, ${rfc3339Text(sql.raw('c.updated_at'))} as updated_at, c.removed
    from farm_feed_ends(array[${farmId}::text]) as e
    left join farm_change_horizons h on h.b_id_farm = ${farmId}
    left join lateral (
      select * from farm_changes
      where b_id_farm = ${farmId} and position > greatest(${after ?? 0}::bigint, coalesce(h.pruned_through, 0))
        and (${withMembers} or record_type <> 'member')
      order by position
      limit ${limit + 1}
    ) c on true
    order by c.position`,
  );
  // The left join on (select 1) makes one row at least, the horizon's.
  const head = firstRow(rows, 'read of the change feed');
  const last = Number(head.last_position);
  const horizon = Number(head.pruned_through ?? 0);
  if (after !== undefined && after < horizon) {
    throw new DomainError(
      'cursor-expired',
      'The change feed no longer holds the entries that followed this cursor: read the farm afresh, then follow the feed from the next of a request without after.',
    );
  }
  const read = rows.filter((row) => row.position !== null);
  const entries = read.slice(0, limit).map((row) => ({
    position: Number(row.position),
    action: row.action,
    type: row.record_type,
    id: row.record_id,
    updated_at: row.updated_at,
    removed: row.removed,
  }));
  const next = entries.at(-1)?.position ?? Math.max(after ?? 0, horizon);
  return { entries, next, hasMore: read.length > limit, last };
}
