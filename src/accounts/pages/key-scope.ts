// What a key created on the API Keys page may do and where: the form's choices, read into a scope.
import type { KeyScope } from '../../core/principal.js';
import { MAX_KEY_FARMS } from '../schemas.js';

/** A farm the person may limit a key to, as the form offers it. */
export interface FarmChoice {
  b_id_farm: string;
  b_name_farm: string;
}

/** One checkbox a farm: its field's name is this prefix and the farm's identifier. */
export const FARM_FIELD_PREFIX = 'farm:';

export interface KeyScopeValues {
  access: string;
  /** `all` the person's farms, or only `some`. */
  reach: string;
  farms: string[];
}

export const keyScopeValues = (form: Record<string, string>): KeyScopeValues => ({
  access: form.access ?? 'write',
  reach: form.reach ?? 'all',
  farms: Object.keys(form)
    .filter((name) => name.startsWith(FARM_FIELD_PREFIX))
    .map((name) => name.slice(FARM_FIELD_PREFIX.length)),
});

export type KeyScopeResult = { ok: true; scope: KeyScope } | { ok: false; field: 'access' | 'reach'; message: string };

export function keyScopeOf({ access, reach, farms }: KeyScopeValues): KeyScopeResult {
  if (access !== 'read' && access !== 'write') return { ok: false, field: 'access', message: 'Choose what the key may do.' };
  if (reach === 'all') return { ok: true, scope: { access, farms: null } };
  if (reach !== 'some') return { ok: false, field: 'reach', message: 'Choose which farms the key reaches.' };
  if (farms.length === 0) return { ok: false, field: 'reach', message: 'Tick at least one farm, or choose all your farms.' };
  if (farms.length > MAX_KEY_FARMS) return { ok: false, field: 'reach', message: `Tick at most ${MAX_KEY_FARMS} farms.` };
  return { ok: true, scope: { access, farms } };
}

/** The form's word for a farm chosen that the person has no role on (any more, or never had). */
export const farmGoneMessage = 'One of the farms ticked is not among your farms any more: tick your farms again.';
