// Comparison of norms answers with the reference's outputs in norms-cases.json: whole numbers exactly, other
// numbers within 1e-9 relative, texts exactly, lists by identifier.
import { expect } from 'vitest';

type Json = Record<string, any>;
export interface NormsCase {
  id: string;
  year: number;
  records: Json;
  derived_by_reference_rules: Json;
  expected: Json;
}

/** The reference's error classes and Akker's kinds of failure. */
const failureKind: Record<string, string> = { NormNotApplicableError: 'not-applicable', Error: 'not-determinable' };

export function expectFigure(actual: unknown, expected: number, what: string) {
  expect(typeof actual, what).toBe('number');
  if (Number.isInteger(expected)) expect(actual, what).toBe(expected);
  else
    expect(Math.abs((actual as number) - expected), `${what}: ${actual} against ${expected}`).toBeLessThanOrEqual(
      Math.abs(expected) * 1e-9,
    );
}

const failure = (expected: Json) => ({ error: failureKind[expected.error], message: expected.message });

export function compareField(actual: Json, expected: Json) {
  const where = expected.b_id;
  expect(actual.b_id).toBe(expected.b_id);
  expect(actual.b_area).toBe(expected.b_area);
  expect(Object.keys(actual.norms).sort(), where).toEqual(Object.keys(expected.norms).sort());
  for (const [name, norm] of Object.entries<Json>(expected.norms)) {
    if ('error' in norm) expect(actual.norms[name], `${where} ${name}`).toEqual(failure(norm));
    else expect(actual.norms[name], `${where} ${name}`).toEqual(norm);
  }
  for (const [name, filling] of Object.entries<Json>(expected.filling)) {
    const mine = actual.filling[name];
    if ('error' in filling) {
      expect(mine, `${where} ${name} filling`).toEqual(failure(filling));
      continue;
    }
    expectFigure(mine.normFilling, filling.normFilling, `${where} ${name} filling`);
    expect(mine.applicationFilling.map((a: Json) => a.p_app_id).sort()).toEqual(
      filling.applicationFilling.map((a: Json) => a.p_app_id).sort(),
    );
    for (const application of filling.applicationFilling as Json[]) {
      const item = mine.applicationFilling.find((a: Json) => a.p_app_id === application.p_app_id);
      expectFigure(item.normFilling, application.normFilling, `${where} ${name} ${application.p_app_id}`);
      expect(item.normFillingDetails, `${where} ${name} ${application.p_app_id} details`).toBe(application.normFillingDetails);
    }
  }
  for (const [name, room] of Object.entries<number | null>(expected.room)) {
    if (room === null) expect(actual.room[name], `${where} ${name} room`).toBeNull();
    else expectFigure(actual.room[name], room, `${where} ${name} room`);
  }
}

export function compareFarm(actual: Json, expected: Json) {
  const farm = expected.farm;
  expect({ norms: actual.norms, filling: actual.filling, room: actual.room }).toEqual({
    norms: farm.norms,
    filling: farm.filling,
    room: farm.room,
  });
  expect([...actual.fieldsInTotals].sort()).toEqual([...farm.fields_in_totals].sort());
  const leftOut = (expected.fields as Json[]).filter((f) => f.listed_for_year && !f.included_in_farm_totals);
  expect([...actual.fieldsLeftOut].sort((a: Json, b: Json) => a.b_id.localeCompare(b.b_id))).toEqual(
    leftOut.map((f) => ({ b_id: f.b_id, ...failure(f.excluded_because) })).sort((a, b) => a.b_id.localeCompare(b.b_id)),
  );
}
