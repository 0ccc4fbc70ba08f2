// How much of each of the farm's fertilizers a field can still take in the year (docs/calculations.md): the
// largest amount, on a grid of 0.1 of the product's own unit, that leaves the room of every norm the product
// fills at 0 or more when it is applied on the given day. Each candidate amount is weighed as a stored
// application would be, by the field's own norms and fillings (field.ts), so the answer holds by construction.
import { kgPerHaConversion, type AmountUnit, type FertilizerEntry } from '../../catalogues/fertilizers.js';
import { D, type Dec } from '../numbers.js';
import { isFailure, type NormFailure } from './errors.js';
import { fieldNorms, namedNorms, type FieldNorms, type NormName } from './field.js';
import { organicRichDiscountApplies, organicRichFactor } from './filling-phosphate.js';
import type { NormsApplication, NormsFarm, NormsField } from './inputs.js';
import { largestPassing } from './largest-passing.js';
import { applicationsOfYear, farmYear } from './records.js';
import type { NormYear } from './tables.js';

/** A fertilizer the farm holds. */
export interface FarmProduct {
  p_id: string;
  p_id_catalogue: string;
  fertilizer: Pick<FertilizerEntry, 'p_name_nl' | 'p_type_rvo' | 'p_n_rt' | 'p_p_rt' | 'p_app_amount_unit' | 'p_density'>;
}

/**
 * limited: the amount is the most that fits; exhausted: not even 0.1 unit fits (or a norm it fills is exceeded
 * already); unlimited: it fills no norm; undetermined: a norm it fills has no value for the field;
 * unconvertible: an amount in its unit cannot be stored (a volume without density).
 */
export type ProductRoomStatus = 'limited' | 'exhausted' | 'unlimited' | 'undetermined' | 'unconvertible';

export interface ProductRoom {
  p_id: string;
  p_name_nl: string;
  status: ProductRoomStatus;
  /** kg product/ha; null unless limited or exhausted. */
  max_amount: number | null;
  /** In max_amount_unit, a multiple of 0.1. */
  max_amount_display: number | null;
  max_amount_unit: AmountUnit;
  /** The norm that 0.1 unit more would take (or keep) below 0. */
  binding: NormName | null;
  /** Only when undetermined: the norm without a value. */
  undetermined_norm?: NormName;
  message: string;
}

/** The identifier of the application being weighed; stored identifiers never look like it. */
const PLANNED = 'planned application';
/** Amounts are weighed on a grid of 0.1 of the product's unit: k stands for k / 10 units. */
const PER_UNIT = 10;

const ROOM_UNITS: Record<NormName, string> = { nitrogen: 'kg N/ha', manure: 'kg N/ha', phosphate: 'kg P2O5/ha', renure: 'kg N/ha' };
const figure = (value: Dec) => String(value.toDecimalPlaces(2, D.ROUND_DOWN).toNumber());

/**
 * The field's norms with one more application of `product` on `date`, of k / 10 units; `toKgPerHa` converts
 * an amount in the product's unit as the store converts one sent in it.
 */
function weigher(
  field: NormsField,
  farm: NormsFarm,
  year: NormYear,
  date: string,
  product: FarmProduct,
  toKgPerHa: (amount: number) => number,
) {
  const planned = (k: number): NormsApplication => ({
    p_app_id: PLANNED,
    p_app_date: date,
    p_app_amount: toKgPerHa(k / PER_UNIT),
    p_id_catalogue: product.p_id_catalogue,
    fertilizer: product.fertilizer,
  });
  const withPlanned = (k: number): NormsField => ({ ...field, applications: [...field.applications, planned(k)] });
  const memo = new Map<number, FieldNorms>();
  const norms = (k: number): FieldNorms => {
    const known = memo.get(k);
    if (known) return known;
    const weighed = fieldNorms(withPlanned(k), farm, year);
    memo.set(k, weighed);
    return weighed;
  };
  const facts = farmYear(farm, year);
  return {
    norms,
    /** The room of a norm the product fills (normsFilled): it has a value at every amount. */
    room: (k: number, name: NormName) => {
      const room = norms(k).norms[name]?.room;
      if (room === undefined)
        throw new Error(`The ${name} norm of field ${field.b_id} has no room with ${k} tenths of a unit of ${product.p_id}`);
      return room;
    },
    /** Whether the organic-rich phosphate discount applies with the planned application (the filling's own test). */
    discountApplies: (k: number) => organicRichDiscountApplies(applicationsOfYear(withPlanned(k), year), facts),
    organicRich: organicRichFactor(product.fertilizer.p_type_rvo, facts) !== undefined,
  };
}

type Weigher = ReturnType<typeof weigher>;

/** The norms the product fills (its application counts above 0), or the first such norm without a value. */
function normsFilled(weigh: Weigher): { filled: NormName[] } | { undetermined: NormName; failure: NormFailure; fillingFailed: boolean } {
  const probe = weigh.norms(PER_UNIT);
  const filled: NormName[] = [];
  for (const { name, value } of namedNorms(probe.norms)) {
    const { norm, filling } = value;
    // Without a filling it cannot be told whether the product fills the norm.
    if (isFailure(filling)) return { undetermined: name, failure: filling, fillingFailed: true };
    const planned = filling.applicationFilling.find((a) => a.p_app_id === PLANNED);
    if (planned === undefined) throw new Error(`The ${name} filling of field ${probe.b_id} leaves out the planned application`);
    if (!planned.normFilling.gt(0)) continue;
    if (isFailure(norm)) return { undetermined: name, failure: norm, fillingFailed: false };
    filled.push(name);
  }
  return { filled };
}

/**
 * Where each norm's room would reach 0 if it fell at the pace it falls from `from` (exact for the fillings
 * that grow in proportion to the amount), the nearest of them; a start for the search.
 */
function linearGuess(weigh: Weigher, filled: NormName[], from: number): number {
  const guesses = filled.flatMap((name) => {
    const fall = weigh.room(from, name).minus(weigh.room(from + PER_UNIT, name));
    return fall.gt(0) ? [weigh.room(from, name).times(PER_UNIT).div(fall).floor().toNumber() + from] : [];
  });
  return guesses.length > 0 ? Math.min(...guesses) : from;
}

/**
 * The largest k whose every filled norm keeps its room at 0 or more, or undefined when there is none. Each
 * room falls as the amount grows, except that the phosphate room jumps up once, where an organic-rich product
 * brings the year's organic-rich phosphate to the threshold of its discount: below and above that point the
 * search runs separately, the upper part first.
 */
function largestFitting(weigh: Weigher, filled: NormName[]): number | undefined {
  const fits = (k: number) => filled.every((name) => weigh.room(k, name).gte(0));
  const parts: Array<[number, number]> = [[0, Infinity]];
  if (filled.includes('phosphate') && weigh.organicRich && !weigh.discountApplies(0)) {
    const threshold = largestPassing((k) => !weigh.discountApplies(k), 0, Infinity, PER_UNIT) + 1;
    parts.splice(0, 1, [threshold, Infinity], [0, threshold - 1]);
  }
  for (const [lo, hi] of parts) {
    if (fits(lo)) return largestPassing(fits, lo, hi, Math.min(linearGuess(weigh, filled, lo), hi));
  }
  return undefined;
}

export function productRoom(field: NormsField, farm: NormsFarm, year: NormYear, date: string, product: FarmProduct): ProductRoom {
  const { p_name_nl: name, p_app_amount_unit: unit, p_density: density } = product.fertilizer;
  const base = { p_id: product.p_id, p_name_nl: name, max_amount: null, max_amount_display: null, max_amount_unit: unit, binding: null };
  const toKgPerHa = kgPerHaConversion(unit, density);
  if (toKgPerHa === undefined) {
    const message = `${name} is applied in ${unit} but has no density, so no amount of it can be stored.`;
    return { ...base, status: 'unconvertible', message };
  }
  const weigh = weigher(field, farm, year, date, product, toKgPerHa);
  const norms = normsFilled(weigh);
  if ('undetermined' in norms) {
    const message = norms.fillingFailed
      ? `The filling of the ${norms.undetermined} norm cannot be computed for this field, so how far ${name} fills that norm cannot be told: ${norms.failure.message}`
      : `The ${norms.undetermined} norm, which ${name} fills, has no value for this field: ${norms.failure.message}`;
    return { ...base, status: 'undetermined', undetermined_norm: norms.undetermined, message };
  }
  if (norms.filled.length === 0) {
    const message = `${name} brings no nitrogen or phosphate that counts towards a usage norm: no norm limits it.`;
    return { ...base, status: 'unlimited', message };
  }
  const k = largestFitting(weigh, norms.filled) ?? 0;
  // The norm with the least room once 0.1 unit more is applied: below 0 by construction.
  const binding = norms.filled.reduce((least, n) => (weigh.room(k + 1, n).lt(weigh.room(k + 1, least)) ? n : least));
  const display = k / PER_UNIT;
  const answer = { ...base, max_amount: toKgPerHa(display), max_amount_display: display, binding };
  const roomNow = weigh.room(0, binding);
  if (k > 0) {
    const left = weigh.room(k, binding);
    const message = `At most ${display} ${unit} of ${name} on ${date}: it leaves ${figure(left)} ${ROOM_UNITS[binding]} under the ${binding} norm, and 0.1 ${unit} more would exceed it.`;
    return { ...answer, status: 'limited', message };
  }
  const message = roomNow.lt(0)
    ? `The ${binding} norm is exceeded already, by ${figure(roomNow.neg())} ${ROOM_UNITS[binding]}: no ${name} fits.`
    : `The ${binding} norm has ${figure(roomNow)} ${ROOM_UNITS[binding]} left: 0.1 ${unit} of ${name} would exceed it.`;
  return { ...answer, status: 'exhausted', message };
}
