// The dose recommendation in amounts of a product, computed in-process over seeded random farms and designed
// cases: the amount property (product-room-property.ts) with the norms the route uses on both sides, the
// largest amount also where the organic-rich phosphate rule makes the room jump, and every status.
import { describe, expect, it } from 'vitest';
import { amountInKgPerHa, findFertilizer } from '../../src/catalogues/fertilizers.js';
import { fieldNormsResponse } from '../../src/calculations/norms/response.js';
import { fieldNorms } from '../../src/calculations/norms/field.js';
import type { NormsFarm, NormsField } from '../../src/calculations/norms/inputs.js';
import { largestPassing } from '../../src/calculations/norms/largest-passing.js';
import { productRoom, type FarmProduct, type ProductRoom } from '../../src/calculations/norms/product-room.js';
import type { NormYear } from '../../src/calculations/norms/tables.js';
import { expectBindingExceeded, expectRoomsKept, nextTenth } from './product-room-property.js';
import { expectFigure } from './norms-compare.js';
import { caseNormsInputs, normsCases } from './norms-store.js';
import { farmProducts, normsInputs, prng, randomNormsFarm } from './random-norms-farm.js';

interface Situation {
  field: NormsField;
  farm: NormsFarm;
  year: NormYear;
  date: string;
}

const STORED = 'stored';

/** The norms answer of the field with an application `STORED` of `display` units of the product on the day. */
function normsWith({ field, farm, year, date }: Situation, product: FarmProduct, display: number | undefined) {
  const { p_app_amount_unit: unit, p_density: density } = product.fertilizer;
  const p_app_amount = display === undefined ? undefined : amountInKgPerHa(display, unit, density)!;
  const stored =
    p_app_amount === undefined
      ? []
      : [{ p_app_id: STORED, p_app_date: date, p_app_amount, p_id_catalogue: product.p_id_catalogue, fertilizer: product.fertilizer }];
  return fieldNormsResponse(fieldNorms({ ...field, applications: [...field.applications, ...stored] }, farm, year));
}
const roomsWith = (s: Situation, product: FarmProduct, display: number | undefined) =>
  normsWith(s, product, display).room as Record<string, number | null>;

function checkAnswer(situation: Situation, product: FarmProduct, answer: ProductRoom) {
  const before = roomsWith(situation, product, undefined);
  const { p_app_amount_unit: unit, p_density: density } = product.fertilizer;
  expect(answer.max_amount_unit).toBe(unit);
  switch (answer.status) {
    case 'limited':
    case 'exhausted': {
      const display = answer.max_amount_display!;
      expect(Math.round(display * 10) / 10).toBe(display);
      expect(answer.max_amount).toBe(amountInKgPerHa(display, unit, density));
      expect(display > 0).toBe(answer.status === 'limited');
      expectRoomsKept(answer, normsWith(situation, product, display), STORED);
      expectBindingExceeded(answer, roomsWith(situation, product, nextTenth(display)));
      break;
    }
    case 'unlimited':
      expect(roomsWith(situation, product, 1000)).toEqual(before);
      break;
    case 'undetermined':
      expect(before[answer.undetermined_norm!]).toBeNull();
      break;
    case 'unconvertible':
      expect(amountInKgPerHa(1, unit, density)).toBeUndefined();
  }
  if (answer.status !== 'limited' && answer.status !== 'exhausted')
    expect([answer.max_amount, answer.max_amount_display, answer.binding]).toEqual([null, null, null]);
}

describe('largestPassing', () => {
  const below = (limit: number) => (k: number) => k <= limit;
  it('finds the last k that passes from a good, a low, a high or no guess, within the range', () => {
    for (const limit of [0, 1, 7, 1000, 123457]) {
      for (const guess of [0, limit, limit - 3, limit + 1, limit * 2 + 5, 1e9])
        expect(largestPassing(below(limit), 0, Infinity, guess)).toBe(limit);
    }
    expect(largestPassing(below(50), 10, 20, 0)).toBe(20);
    expect(largestPassing(below(15), 10, 20, 40)).toBe(15);
  });
  it('costs two tests from an exact guess', () => {
    let tests = 0;
    largestPassing((k) => (tests++, k <= 4321), 0, Infinity, 4321);
    expect(tests).toBe(2);
  });
});

describe('the most of a product that fits, on every field of the norms cases', () => {
  it('holds the amount property for every fertilizer of the farm, in spring and in autumn', () => {
    let checked = 0;
    for (const testCase of normsCases) {
      for (const expected of (testCase.expected.fields as Array<Record<string, any>>).filter((f) => f.listed_for_year)) {
        const { field, farm, products } = caseNormsInputs(testCase.records, expected.b_id);
        const year = testCase.year as NormYear;
        // The inputs are the case's: the field's rooms are the reference's.
        const rooms = fieldNormsResponse(fieldNorms(field, farm, year)).room as Record<string, number | null>;
        for (const [norm, room] of Object.entries<number | null>(expected.room)) {
          if (room === null) expect(rooms[norm]).toBeNull();
          else expectFigure(rooms[norm], room, `${expected.b_id} ${norm}`);
        }
        for (const date of [`${year}-03-15`, `${year}-10-15`]) {
          for (const product of products) {
            checkAnswer({ field, farm, year, date }, product, productRoom(field, farm, year, date, product));
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe('the most of a product that fits, over 240 seeded random farms', () => {
  it('holds the amount property for every product of every farm, and meets every status', () => {
    const r = prng(31);
    const statuses = new Map<string, number>();
    let scanned = 0;
    for (let n = 0; n < 240; n++) {
      const random = randomNormsFarm(r);
      const { field, farm } = normsInputs(random);
      const situation = { field, farm, year: random.year, date: random.applicationDate };
      for (const product of farmProducts(random)) {
        const answer = productRoom(field, farm, random.year, random.applicationDate, product);
        checkAnswer(situation, product, answer);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        // Largest: no amount up to 5 units more fits either (the phosphate room can jump up once).
        if (answer.status === 'limited' && product.fertilizer.p_app_amount_unit !== 'kg/ha' && n < 60) {
          scanned++;
          for (let k = Math.round(answer.max_amount_display! * 10) + 2; k <= Math.round(answer.max_amount_display! * 10) + 50; k += 4) {
            const { room, filling } = normsWith(situation, product, k / 10);
            const exceeded = Object.entries(room).filter(([norm, r]) => {
              const own = filling[norm as 'nitrogen'];
              return (
                r !== null &&
                r < 0 &&
                'applicationFilling' in own! &&
                own.applicationFilling.some((a) => a.p_app_id === STORED && a.normFilling > 0)
              );
            });
            expect(exceeded.length, `${product.p_id} at ${k / 10}`).toBeGreaterThan(0);
          }
        }
      }
    }
    expect(Object.fromEntries(statuses)).toEqual({
      limited: expect.any(Number),
      exhausted: expect.any(Number),
      unlimited: expect.any(Number),
      undetermined: expect.any(Number),
      unconvertible: expect.any(Number),
    });
    expect(statuses.get('limited')).toBeGreaterThan(400);
    expect(scanned).toBeGreaterThan(50);
  });
});

describe("the organic-rich phosphate rule: the room jumps up where the year's organic-rich phosphate reaches 20 kg", () => {
  const product = (id: string): FarmProduct => ({ p_id: id, p_id_catalogue: id, fertilizer: findFertilizer(id)! });
  const applied = (id: string, display: number, i: number) => {
    const f = findFertilizer(id)!;
    const p_app_amount = amountInKgPerHa(display, f.p_app_amount_unit, f.p_density)!;
    return { p_app_id: `a${i}`, p_app_date: '2025-03-10', p_app_amount, p_id_catalogue: id, fertilizer: f };
  };
  // Arable land on clay, phosphate class Ruim: 60 kg P2O5/ha. APP brings 0.4726 kg P2O5 per litre.
  const situation = (applications: Array<[string, number]>): Situation => ({
    year: 2025,
    date: '2025-04-01',
    farm: { derogationYears: [], grazingIntentions: [], organicCertifications: [] },
    field: {
      ...normsInputs(randomNormsFarm(prng(1))).field,
      b_bufferstrip: false,
      b_soil_region: 'klei',
      cultivations: [{ b_lu: 'c', b_lu_catalogue: 'nl_233', b_lu_start: '2024-10-20', b_lu_end: '2025-08-05', b_lu_variety: null }],
      soilAnalyses: [{ b_sampling_date: '2024-02-01', a_p_cc: 2.8, a_p_al: 48 }],
      applications: applications.map(([id, display], i) => applied(id, display, i)),
    },
  });
  /** The largest k of 0.1 t up to 20 t whose stored application leaves the room of every norm the product fills at 0 or more. */
  function scanned(s: Situation, p: FarmProduct) {
    const before = roomsWith(s, p, undefined);
    const filled = Object.entries(roomsWith(s, p, 1)).flatMap(([norm, room]) => (room === before[norm] ? [] : [norm]));
    const fits = (k: number) => {
      const rooms = roomsWith(s, p, k / 10);
      return filled.every((norm) => rooms[norm]! >= 0);
    };
    let largest: number | undefined;
    for (let k = 0; k <= 200; k++) if (fits(k)) largest = k;
    return { largest, fits };
  }

  it('finds the answer above the jump when the phosphate norm is exceeded already', () => {
    // 50.0 kg standard phosphate and 14.72 kg from compost (still counted in full): room -4.72.
    const s = situation([
      ['BAAT004', 105.8],
      ['BAAT020', 2.3],
    ]);
    const compost = product('BAAT020');
    expect(roomsWith(s, compost, undefined).phosphate).toBeLessThan(0);
    const answer = productRoom(s.field, s.farm, s.year, s.date, compost);
    const { largest, fits } = scanned(s, compost);
    expect(fits(1)).toBe(false);
    expect(answer).toMatchObject({ status: 'limited', binding: 'phosphate', max_amount_display: largest! / 10 });
    expect(answer.max_amount_display).toBe(3.9);
    checkAnswer(s, compost, answer);
  });

  it('finds the answer below the jump when the discount does not make up for the phosphate that reaches the threshold', () => {
    // 47.02 kg standard phosphate and 9.92 kg from solid cattle manure (factor 0.75): room 3.06.
    const s = situation([
      ['BAAT004', 99.5],
      ['BAAT049', 3.2],
    ]);
    const manure = product('BAAT049');
    const answer = productRoom(s.field, s.farm, s.year, s.date, manure);
    const { largest } = scanned(s, manure);
    expect(answer).toMatchObject({ status: 'limited', binding: 'phosphate', max_amount_display: largest! / 10 });
    expect(answer.max_amount_display).toBe(0.9);
    checkAnswer(s, manure, answer);
  });

  it('answers 0 for a product that does not reach the threshold while the norm is exceeded', () => {
    const s = situation([['BAAT004', 140]]);
    const app = product('BAAT004');
    const answer = productRoom(s.field, s.farm, s.year, s.date, app);
    expect(answer).toMatchObject({ status: 'exhausted', binding: 'phosphate', max_amount: 0, max_amount_display: 0 });
    expect(answer.message).toContain('exceeded already');
    expect(scanned(s, app).largest).toBeUndefined();
    checkAnswer(s, app, answer);
  });
});

describe('a norm without a value', () => {
  it('leaves every product without an amount on a field without a soil region, saying the nitrogen filling cannot be computed', () => {
    const { field, farm } = normsInputs(randomNormsFarm(prng(5)));
    const regionless = { ...field, b_soil_region: null };
    for (const id of ['BAAT028', 'BAAT017']) {
      const answer = productRoom(regionless, farm, 2025, '2025-04-01', { p_id: id, p_id_catalogue: id, fertilizer: findFertilizer(id)! });
      expect(answer).toMatchObject({ status: 'undetermined', undetermined_norm: 'nitrogen', max_amount: null, binding: null });
      expect(answer.message).toContain('The filling of the nitrogen norm cannot be computed for this field');
      expect(answer.message).toContain('set b_soil_region on the field');
    }
  });
});
