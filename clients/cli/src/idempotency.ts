// The Idempotency-Key of a write: the same file, farm, feature, action and body give the same key, so a run
// cut short and started again is answered with the first run's result instead of writing twice.
import { createHash } from 'node:crypto';

export interface WriteIdentity {
  contentHash: string;
  farmId: string;
  feature: number | string;
  action: string;
  body?: unknown;
}

export const idempotencyKey = ({ contentHash, farmId, feature, action, body }: WriteIdentity): string =>
  `akker-cli-${createHash('sha256')
    .update([contentHash, farmId, String(feature), action, JSON.stringify(body ?? null)].join('\n'))
    .digest('hex')}`;
