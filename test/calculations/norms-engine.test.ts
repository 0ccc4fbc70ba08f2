// Every case of test/fixtures/norms-cases.json run through the norms engine directly (records mapped to its
// input), every figure and text compared with the reference's output.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findFertilizer } from '../../src/catalogues/fertilizers.js';
import { fieldNormsResponse } from '../../src/calculations/norms/response.js';
import { farmNorms } from '../../src/calculations/norms/farm.js';
import { fieldNorms } from '../../src/calculations/norms/field.js';
import type { NormsFarm, NormsField } from '../../src/calculations/norms/inputs.js';
import { fieldInYear } from '../../src/calculations/norms/records.js';
import type { NormYear } from '../../src/calculations/norms/tables.js';
import { compareFarm, compareField, type NormsCase } from './norms-compare.js';

const cases = (JSON.parse(readFileSync(new URL('../fixtures/norms-cases.json', import.meta.url), 'utf8')) as { cases: NormsCase[] }).cases;

function engineInput(testCase: NormsCase): { farm: NormsFarm; fields: NormsField[] } {
  const r = testCase.records;
  const amounts = new Map<string, number>(
    testCase.derived_by_reference_rules.p_app_amount_kg_ha.map((a: any) => [a.p_app_id, a.p_app_amount]),
  );
  const catalogueIdOf = new Map<string, string>(r.fertilizers.map((f: any) => [f.p_id, f.p_id_catalogue]));
  const farm: NormsFarm = {
    derogationYears: r.derogations.map((d: any) => d.b_derogation_year),
    grazingIntentions: r.grazing_intentions.map((g: any) => ({
      year: g.b_grazing_intention_year,
      b_grazing_intention: g.b_grazing_intention,
    })),
    organicCertifications: r.organic_certifications,
  };
  const fields = r.fields.map((f: any): NormsField => ({
    b_id: f.b_id,
    b_area: f.b_area,
    b_start: f.b_start,
    b_end: f.b_end,
    b_bufferstrip: f.b_bufferstrip,
    b_soil_region: f.b_soil_region,
    b_in_nv_area: f.b_in_nv_area,
    b_in_gwbg: f.b_in_gwbg,
    b_in_natura2000: f.b_in_natura2000,
    b_in_derogation_free_zone: f.b_in_derogation_free_zone,
    cultivations: r.cultivations
      .filter((c: any) => c.b_id === f.b_id)
      .map((c: any) => ({
        b_lu: c.b_lu,
        b_lu_catalogue: c.b_lu_catalogue,
        b_lu_start: c.b_lu_start,
        b_lu_end: c.b_lu_end,
        b_lu_variety: c.b_lu_variety,
      })),
    soilAnalyses: r.soil_analyses
      .filter((a: any) => a.b_id === f.b_id)
      .map((a: any) => ({ b_sampling_date: a.b_sampling_date, a_p_cc: a.a_p_cc ?? null, a_p_al: a.a_p_al ?? null }))
      .reverse(),
    applications: r.fertilizer_applications
      .filter((a: any) => a.b_id === f.b_id)
      .map((a: any) => {
        const catalogueId = catalogueIdOf.get(a.p_id)!;
        return {
          p_app_id: a.p_app_id,
          p_app_date: a.p_app_date,
          p_app_amount: amounts.get(a.p_app_id)!,
          p_id_catalogue: catalogueId,
          fertilizer: findFertilizer(catalogueId)!,
        };
      }),
  }));
  return { farm, fields };
}

describe('the norms engine on norms-cases.json', () => {
  for (const testCase of cases) {
    describe(testCase.id, () => {
      const year = testCase.year as NormYear;
      const { farm, fields } = engineInput(testCase);
      const results = fields.map((field) => fieldNorms(field, farm, year));

      for (const expected of testCase.expected.fields) {
        it(`answers field ${expected.b_id} as the reference`, () => {
          compareField(fieldNormsResponse(results.find((r) => r.b_id === expected.b_id)!), expected);
        });
      }

      it('answers the farm totals as the reference', () => {
        const listed = results.filter((_, i) => fieldInYear(fields[i]!, year));
        expect(listed.map((f) => f.b_id).sort()).toEqual(
          testCase.expected.fields
            .filter((f: any) => f.listed_for_year)
            .map((f: any) => f.b_id)
            .sort(),
        );
        compareFarm(farmNorms(listed, year), testCase.expected);
      });
    });
  }
});
