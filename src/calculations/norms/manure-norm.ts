// The animal-manure norm (dierlijke-mest-gebruiksnorm) and, from 2026, the Renure norm: the first rule of
// the year's list whose conditions hold.
import type { NormOutcome } from './errors.js';
import type { NormsField } from './inputs.js';
import type { FarmYear } from './records.js';
import { fromTable, manureNorms, type NormRule } from './tables.js';

const conditions: Record<string, (field: NormsField, farm: FarmYear) => boolean> = {
  always: () => true,
  bufferstrip: (field) => field.b_bufferstrip,
  derogation: (_, farm) => farm.derogation,
  'not derogation': (_, farm) => !farm.derogation,
  natura2000: (field) => field.b_in_natura2000,
  gwbg: (field) => field.b_in_gwbg,
  derogation_free_zone: (field) => field.b_in_derogation_free_zone,
  nv_area: (field) => field.b_in_nv_area,
};

/** Each rule with its conditions, checked once at start-up so that a rule never names an unknown one. */
const compile = (rules: NormRule[]) =>
  rules.map((rule) => ({
    rule,
    tests: rule.when.split(' and ').map((word) => {
      const test = conditions[word];
      if (!test) throw new Error(`manure-norms.json: unknown condition "${word}"`);
      return test;
    }),
  }));

const compiled = (lists: Record<string, NormRule[]>) =>
  new Map(Object.entries(lists).map(([year, rules]) => [Number(year), compile(rules)]));
const manureRules = compiled(manureNorms.manure);
const renureRules = compiled(manureNorms.renure);

function firstRule(rules: ReturnType<typeof compile>, field: NormsField, farm: FarmYear): NormOutcome {
  // Every list ends with a rule that always holds.
  const { rule } = fromTable(
    rules.find(({ tests }) => tests.every((test) => test(field, farm))),
    'manure-norms.json',
    `rule of ${farm.year} that holds for field ${field.b_id}`,
  );
  return { normValue: rule.normValue, normSource: rule.normSource };
}

export const manureNorm = (field: NormsField, farm: FarmYear): NormOutcome =>
  firstRule(fromTable(manureRules.get(farm.year), 'manure-norms.json', `manure rules for ${farm.year}`), field, farm);

/** Only from 2026; undefined before. */
export function renureNorm(field: NormsField, farm: FarmYear): NormOutcome | undefined {
  const rules = renureRules.get(farm.year);
  return rules && firstRule(rules, field, farm);
}
