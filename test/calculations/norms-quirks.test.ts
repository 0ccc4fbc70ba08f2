// The reference's surprising rules (docs/calculations.md, "Quirks of the usage norms"), each on a small field
// run through the norms engine, with figures worked out by hand from the tables.
import { describe, expect, it } from 'vitest';
import { findFertilizer } from '../../src/catalogues/fertilizers.js';
import { fieldNormsResponse } from '../../src/calculations/norms/response.js';
import { farmNorms } from '../../src/calculations/norms/farm.js';
import { fieldNorms } from '../../src/calculations/norms/field.js';
import type { NormsApplication, NormsCultivation, NormsFarm, NormsField } from '../../src/calculations/norms/inputs.js';
import { phosphateClass } from '../../src/calculations/norms/phosphate-norm.js';
import type { NormYear } from '../../src/calculations/norms/tables.js';

const noFarmFacts: NormsFarm = { derogationYears: [], grazingIntentions: [], organicCertifications: [] };
const grazing = (year: number): NormsFarm => ({ ...noFarmFacts, grazingIntentions: [{ year, b_grazing_intention: true }] });

let ids = 0;
const crop = (code: string, start: string, end: string | null, variety: string | null = null): NormsCultivation => ({
  b_lu: `c${++ids}`,
  b_lu_catalogue: code,
  b_lu_start: start,
  b_lu_end: end,
  b_lu_variety: variety,
});
const spread = (catalogueId: string, date: string, amount: number, p_app_id = `a${++ids}`): NormsApplication => ({
  p_app_id,
  p_app_date: date,
  p_app_amount: amount,
  p_id_catalogue: catalogueId,
  fertilizer: findFertilizer(catalogueId)!,
});

function field(overrides: Partial<NormsField> = {}): NormsField {
  return {
    b_id: 'f',
    b_area: 1,
    b_start: '2020-01-01',
    b_end: null,
    b_bufferstrip: false,
    b_soil_region: 'klei',
    b_in_nv_area: false,
    b_in_gwbg: false,
    b_in_natura2000: false,
    b_in_derogation_free_zone: false,
    cultivations: [],
    soilAnalyses: [{ b_sampling_date: '2024-01-01', a_p_cc: 2, a_p_al: 40 }],
    applications: [],
    ...overrides,
  };
}

const norms = (f: NormsField, year: NormYear = 2025, farm = noFarmFacts) => fieldNormsResponse(fieldNorms(f, farm, year));
const nitrogen = (f: NormsField, year: NormYear = 2025, farm = noFarmFacts) => norms(f, year, farm).norms.nitrogen;

describe('temporary grassland periods', () => {
  it('places the periods in the year of the crop’s end (1)', () => {
    expect(nitrogen(field({ cultivations: [crop('nl_266', '2024-09-01', '2026-04-30')] }))).toEqual({
      normValue: 60,
      normSource: 'Tijdelijk grasland.',
    });
  });

  it('falls back to "vanaf 15 oktober" for a ley sown in March and kept to the year’s end (2)', () => {
    expect(nitrogen(field({ cultivations: [crop('nl_266', '2025-03-01', null)] }))).toMatchObject({ normValue: 0 });
    expect(nitrogen(field({ cultivations: [crop('nl_266', '2025-03-01', '2025-10-01')] }))).toMatchObject({ normValue: 310 });
  });

  it('lets the earliest "vanaf" period win for a later sowing (3)', () => {
    expect(nitrogen(field({ cultivations: [crop('nl_266', '2025-05-20', null)] }))).toMatchObject({ normValue: 310 });
    expect(nitrogen(field({ cultivations: [crop('nl_266', '2024-09-01', null)] }))).toMatchObject({ normValue: 310 });
    expect(nitrogen(field({ cultivations: [crop('nl_266', '2025-01-01', '2025-06-01')] }))).toMatchObject({ normValue: 110 });
  });
});

describe('main crop and table entry', () => {
  it('takes the dates and variety of the most recently started cultivation of the main crop (4)', () => {
    const cultivations = [crop('nl_2014', '2025-04-01', '2025-08-01', 'Fontane'), crop('nl_2014', '2025-09-01', null)];
    expect(nitrogen(field({ cultivations }))).toEqual({ normValue: 250, normSource: 'Akkerbouwgewas, consumptie aardappelen (overig).' });
    expect(nitrogen(field({ cultivations: cultivations.slice(0, 1) }))).toMatchObject({ normValue: 275 });
  });

  it('gives groene braak when nothing grows between 15 May and 15 July, with a reduction on sand that the floor absorbs (14)', () => {
    expect(nitrogen(field({ b_soil_region: 'zand_nwc', cultivations: [crop('nl_2014', '2025-03-01', '2025-05-15')] }))).toEqual({
      normValue: 0,
      normSource: 'Geen plaatsingsruimte. Korting: 20kg N/ha: geen vanggewas of winterteelt',
    });
  });

  it('resolves codes of two entries to the entry with described sub-types (5)', () => {
    expect(nitrogen(field({ cultivations: [crop('nl_1949', '2025-03-01', null)] }))).toMatchObject({
      normSource: 'Akkerbouwgewassen, Luzerne (eerste jaar).',
    });
    expect(nitrogen(field({ cultivations: [crop('nl_1919', '2024-03-01', null)] }))).toMatchObject({
      normSource: 'Akkerbouwgewassen, Graszaad, Engels raaigras (overjarig).',
    });
  });

  it('cannot determine crop groups whose sub-type no rule picks (6)', () => {
    expect(nitrogen(field({ cultivations: [crop('nl_2743', '2025-03-01', null)] }))).toEqual({
      error: 'not-determinable',
      message: 'Applicable norms object is undefined for Kruiden in region klei.',
    });
  });

  it('moves the potato-control norm from nl_2025 to nl_2026 in 2026 (7)', () => {
    expect(nitrogen(field({ cultivations: [crop('nl_2025', '2026-03-01', null)] }), 2026)).toEqual({
      error: 'not-applicable',
      message: 'No matching nitrogen standard found for b_lu_catalogue nl_2025.',
    });
    expect(nitrogen(field({ cultivations: [crop('nl_2026', '2026-03-01', null)] }), 2026)).toMatchObject({ normValue: 0 });
  });

  it('writes the cosmetic descriptions (9)', () => {
    expect(nitrogen(field({ cultivations: [crop('nl_259', '2026-05-01', '2026-10-01')] }), 2026)).toMatchObject({
      normSource: 'Akkerbouwgewassen, mais (non-derogatie).',
    });
    expect(nitrogen(field({ cultivations: [crop('nl_1932', '2025-03-01', '2025-08-01')] }))).toMatchObject({
      normSource: 'Akkerbouwgewassen, Ui overig, zaaiui of winterui. (1e jaars).',
    });
  });

  it('counts nl_332 as grassland for phosphate though it has no nitrogen norm (17)', () => {
    const answer = norms(field({ cultivations: [crop('nl_332', '2020-03-01', null)] }));
    expect(answer.norms.nitrogen).toMatchObject({ error: 'not-applicable' });
    expect(answer.norms.phosphate).toEqual({ normValue: 90, normSource: 'Grasland: Ruim' });
  });
});

describe('reductions', () => {
  const sand = { b_soil_region: 'zand_nwc' as const };

  it('skips the winter-crop flag: maize on sand has no catch-crop reduction (8)', () => {
    expect(nitrogen(field({ ...sand, cultivations: [crop('nl_259', '2025-05-01', '2025-10-01')] }))).toMatchObject({
      normSource: 'Akkerbouwgewassen, mais (non-derogatie). Geen korting: winterteelt aanwezig',
    });
  });

  it('destroys grassland for sweet corn, not for seed potatoes, which then miss a catch crop (10)', () => {
    expect(
      nitrogen(field({ ...sand, cultivations: [crop('nl_265', '2020-01-01', '2025-04-01'), crop('nl_814', '2025-05-01', null)] })),
    ).toMatchObject({ normValue: 185 - 65, normSource: 'Vruchtgewassen, suikermais. Korting: 65kg N/ha: graslandvernietiging' });
    expect(
      nitrogen(field({ ...sand, cultivations: [crop('nl_265', '2020-01-01', '2025-04-01'), crop('nl_2015', '2025-04-15', null)] })),
    ).toMatchObject({ normSource: 'Akkerbouwgewas, pootaardappelen (overig). Korting: 20kg N/ha: geen vanggewas of winterteelt' });
  });

  it('leaves no nitrogen norm for a renewal outside its window (11)', () => {
    expect(
      nitrogen(field({ ...sand, cultivations: [crop('nl_265', '2020-01-01', '2025-03-01'), crop('nl_265', '2025-03-10', null)] })),
    ).toEqual({
      error: 'not-applicable',
      message: 'Graslandvernieuwing op zand- en lössgrond is alleen toegestaan tussen 1 juni en 31 augustus.',
    });
  });

  it('reduces renewals on clay in 2025 but not in 2026 (13)', () => {
    const renewed = (year: number) => [crop('nl_265', '2020-01-01', `${year}-07-01`), crop('nl_265', `${year}-07-10`, null)];
    expect(nitrogen(field({ cultivations: renewed(2025) }), 2025, grazing(2025))).toEqual({
      normValue: 345 - 50,
      normSource: 'Grasland (beweiden). Korting: 50kg N/ha: graslandvernieuwing',
    });
    expect(nitrogen(field({ cultivations: renewed(2026) }), 2026, grazing(2026))).toEqual({
      normValue: 345,
      normSource: 'Grasland (beweiden).',
    });
  });

  it('grades the catch crop by its sowing date and whether it stood until 1 February', () => {
    const potatoesAfter = (catchCrop: NormsCultivation) =>
      nitrogen(field({ ...sand, cultivations: [catchCrop, crop('nl_2014', '2025-04-10', '2025-09-01')] }));
    expect(potatoesAfter(crop('nl_3504', '2024-09-20', '2025-03-01'))).toMatchObject({
      normSource: 'Akkerbouwgewas, consumptie aardappelen (overig). Geen korting: vanggewas gezaaid uiterlijk 1 oktober',
    });
    expect(potatoesAfter(crop('nl_3504', '2024-10-05', '2025-03-01'))).toMatchObject({ normValue: 235 - 5 });
    expect(potatoesAfter(crop('nl_3504', '2024-11-05', '2025-03-01'))).toMatchObject({ normValue: 235 - 20 });
    expect(potatoesAfter(crop('nl_3504', '2024-09-20', '2025-01-15'))).toMatchObject({
      normSource: 'Akkerbouwgewas, consumptie aardappelen (overig). Korting: 20kg N/ha: vanggewas staat niet tot 1 februari',
    });
  });
});

describe('fillings', () => {
  it('fills a buffer strip’s zero norms, so its room goes negative (15)', () => {
    const answer = norms(field({ b_bufferstrip: true, applications: [spread('BAAT028', '2025-04-01', 100)] }));
    expect(answer.norms.nitrogen).toEqual({ normValue: 0, normSource: 'Bufferstrook: geen plaatsingsruimte' });
    expect(answer.room.nitrogen).toBe(-27);
  });

  it('counts cattle slurry at 45% on a grazing farm and 60% otherwise (18)', () => {
    const slurry = field({ cultivations: [crop('nl_265', '2020-01-01', null)], applications: [spread('BAAT050', '2025-03-01', 10000)] });
    expect(norms(slurry, 2025, grazing(2025)).filling.nitrogen).toMatchObject({ normFilling: 18.45 });
    expect(norms(slurry).filling.nitrogen).toMatchObject({
      normFilling: 24.6,
      applicationFilling: [
        expect.objectContaining({ normFillingDetails: 'Werkingscoëfficiënt: 60% - Drijfmest van graasdieren aangevoerd' }),
      ],
    });
  });

  it('counts solid manure on clay before sowing as non-arable land (20) and prints 55% as the double prints it (25)', () => {
    const answer = norms(
      field({
        cultivations: [crop('nl_233', '2025-10-20', null)],
        applications: [spread('BAAT049', '2025-10-05', 10000), spread('BAAT061', '2025-10-25', 10000)],
      }),
    );
    expect(answer.filling.nitrogen).toMatchObject({
      applicationFilling: [
        { normFilling: 40.7, normFillingDetails: 'Werkingscoëfficiënt: 55.00000000000001% - Vaste mest van varkens, pluimvee en nertsen' },
        {
          normFilling: 25.6,
          normFillingDetails: 'Werkingscoëfficiënt: 40% - Vaste mest van graasdieren aangevoerd - Overige toepassingen',
        },
      ],
    });
  });

  it('takes the table content for N content 0 in the nitrogen filling but not in the manure filling (21)', () => {
    const zeroN: NormsApplication = {
      ...spread('BAAT050', '2025-03-01', 10000),
      fertilizer: { p_type_rvo: '14', p_n_rt: 0, p_p_rt: null },
    };
    const answer = norms(field({ applications: [zeroN] }));
    expect(answer.filling.nitrogen).toMatchObject({ normFilling: 24 });
    expect(answer.filling.manure).toMatchObject({ normFilling: 0 });
    expect(answer.filling.phosphate).toMatchObject({ normFilling: 15 });
  });

  it('counts Renure as animal manure in 2025 and for its own norm in 2026 (22)', () => {
    const renure = (year: NormYear) => norms(field({ applications: [spread('BAAT073', `${year}-04-01`, 345)] }), year);
    expect(renure(2025).filling.manure).toMatchObject({ normFilling: 51.75 });
    expect(renure(2025).norms.renure).toBeUndefined();
    expect(renure(2026).filling.manure).toMatchObject({ normFilling: 0 });
    expect(renure(2026).filling.renure).toMatchObject({ normFilling: 51.75 });
    expect(renure(2026).room.renure).toBe(28.25);
  });

  it('discounts compost before manure, newest first, up to the norm; solid pig manure only on organic farms (23)', () => {
    const f = field({
      soilAnalyses: [{ b_sampling_date: '2024-01-01', a_p_cc: 3, a_p_al: 50 }],
      applications: [
        spread('BAAT061', '2025-04-01', 4000, 'pig'),
        spread('BAAT049', '2025-05-01', 10000, 'cattle'),
        spread('BAAT021', '2025-03-01', 10000, 'compost'),
      ],
    });
    // Bouwland, P-CaCl2 3 / P-AL 50: Ruim, 60 kg P2O5/ha. Compost 41 kg, cattle manure 31 kg, pig manure 28 kg.
    const organic = { ...noFarmFacts, organicCertifications: [{ b_organic_issued: '2025-01-01', b_organic_expires: '2025-05-15' }] };
    expect(norms(f, 2025, organic).filling.phosphate).toMatchObject({
      normFilling: 10.25 + 14.25 + 12 + 28,
      applicationFilling: [
        {
          p_app_id: 'cattle',
          normFilling: 14.25 + 12,
          normFillingDetails:
            'OS-rijke meststof (75% korting) draagt 14.25kg bij aan de norm. Plus 12.00kg (100% geteld) boven de kortingslimiet.',
        },
        {
          p_app_id: 'pig',
          normFilling: 28,
          normFillingDetails: 'OS-rijke meststof, geen korting toegepast. Plus 28.00kg (100% geteld) boven de kortingslimiet.',
        },
        { p_app_id: 'compost', normFilling: 10.25, normFillingDetails: 'OS-rijke meststof (25% korting) draagt 10.25kg bij aan de norm.' },
      ],
    });
    expect(norms(f).filling.phosphate).toMatchObject({
      applicationFilling: [expect.anything(), { p_app_id: 'pig', normFilling: 28 }, expect.anything()],
    });
  });

  it('counts organic-rich phosphate fully under the 20 kg threshold', () => {
    expect(norms(field({ applications: [spread('BAAT049', '2025-05-01', 5000)] })).filling.phosphate).toEqual({
      normFilling: 15.5,
      applicationFilling: [
        {
          p_app_id: expect.any(String),
          normFilling: 15.5,
          normFillingDetails: 'OS-rijke meststof, minimumdrempel niet gehaald, 100% geteld.',
        },
      ],
    });
  });
});

describe('a field without a soil region', () => {
  const answer = fieldNorms(field({ b_soil_region: null, cultivations: [crop('nl_233', '2024-10-20', '2025-08-01')] }), noFarmFacts, 2025);

  it('has no nitrogen norm and no nitrogen filling, even without applications, and says what to add (24)', () => {
    const wire = fieldNormsResponse(answer);
    for (const outcome of [wire.norms.nitrogen, wire.filling.nitrogen]) {
      expect(outcome).toEqual({ error: 'not-determinable', message: expect.stringContaining('set b_soil_region on the field') });
    }
    expect(wire.norms.manure).toEqual({ normValue: 170, normSource: 'Standaard - geen derogatie' });
    expect(wire.room).toEqual({ nitrogen: null, manure: 170, phosphate: 80 });
  });

  it('is left out of the farm totals entirely (26)', () => {
    const farm = farmNorms([answer], 2025);
    expect(farm.fieldsInTotals).toEqual([]);
    expect(farm.fieldsLeftOut).toEqual([{ b_id: 'f', error: 'not-determinable', message: expect.stringContaining('b_soil_region') }]);
    expect(farm.norms).toEqual({ nitrogen: 0, manure: 0, phosphate: 0 });
  });
});

it('rounds soil phosphate half-up as written before the class is looked up (16)', () => {
  expect(phosphateClass('bouwland', 2.45, 45.5)).toBe('Ruim');
  expect(phosphateClass('bouwland', 2.44, 45.4)).toBe('Laag');
  expect(phosphateClass('grasland', 1.45, 20)).toBe('Laag');
});
