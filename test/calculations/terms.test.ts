// Each term of the nitrogen balance and the dose, against figures computed by hand from the method of docs/calculations.md.
import { describe, expect, it } from 'vitest';
import { findCrop } from '../../src/catalogues/crops.js';
import { fertilizerCatalogue, findFertilizer } from '../../src/catalogues/fertilizers.js';
import { daysBetween } from '../../src/calculations/dates.js';
import { applicationDose, fieldDose } from '../../src/calculations/dose/dose.js';
import { fertilizerAmmonia, nitrateLeaching } from '../../src/calculations/nitrogen-balance/emission.js';
import { farmBalance, type FieldResult } from '../../src/calculations/nitrogen-balance/farm.js';
import { fieldBalance } from '../../src/calculations/nitrogen-balance/field.js';
import {
  FieldCalculationError,
  type BalanceApplication,
  type BalanceCultivation,
  type BalanceField,
} from '../../src/calculations/nitrogen-balance/inputs.js';
import { landUseClass } from '../../src/calculations/nitrogen-balance/land-use.js';
import { harvestRemoval, harvestsInOrder, residueAmmonia, residueRemoval } from '../../src/calculations/nitrogen-balance/removal.js';
import { combineSoil } from '../../src/calculations/nitrogen-balance/soil.js';
import { total } from '../../src/calculations/items.js';
import { deposition, fertilizerSupply, fixation, mineralisation } from '../../src/calculations/nitrogen-balance/supply.js';
import { target } from '../../src/calculations/nitrogen-balance/target.js';
import { fieldTimeframe, overlapFraction } from '../../src/calculations/nitrogen-balance/timeframe.js';
import { D, roundOutput } from '../../src/calculations/numbers.js';

const YEAR = { start: '2025-01-01', end: '2025-12-31' };
const cultivation = (code: string, start: string, end: string | null, residue: boolean | null = null, id = code): BalanceCultivation => ({
  b_lu: id,
  b_lu_start: start,
  b_lu_end: end,
  m_cropresidue: residue,
  crop: findCrop(code)!,
});
const application = (catalogueId: string, amount: number, method: string | null, date: string, id = catalogueId): BalanceApplication => ({
  p_app_id: id,
  p_id: `farm-${catalogueId}`,
  p_app_amount: amount,
  p_app_method: method,
  p_app_date: date,
  fertilizer: findFertilizer(catalogueId)!,
});
// `|| 0`: a term that is −0 in decimals is 0 in the output (roundOutput), and here.
const catalogueId = (name: string) => fertilizerCatalogue.find((entry) => entry.p_name_nl === name)!.p_id_catalogue;
const n = (value: InstanceType<typeof D>) => value.toNumber() || 0;

describe('rounding and dates', () => {
  it('rounds half away from zero, and −0 is 0', () => {
    expect([2.5, -2.5, -101.5, 102.5, -0.4].map((v) => roundOutput(new D(v)))).toEqual([3, -3, -102, 103, 0]);
    expect(Object.is(roundOutput(new D(-0.4)), 0)).toBe(true);
  });

  it('counts calendar days: 2025-01-01 → 2025-12-31 is 364', () => {
    expect(daysBetween('2025-12-31', '2025-01-01')).toBe(364);
    expect(daysBetween('2025-01-01', '2024-01-01')).toBe(366);
  });
});

describe('soil values (4.1)', () => {
  it('takes the most recent value of each parameter, undated analyses last', () => {
    const soil = combineSoil(
      [
        { b_sampling_date: null, parameters: { b_soiltype_agr: 'veen', b_gwl_class: 'I', a_som_loi: 30, a_n_rt: 9000 } },
        { b_sampling_date: '2025-03-01', parameters: { b_soiltype_agr: 'zeeklei', a_som_loi: 3.5, a_n_rt: 1800 } },
        { b_sampling_date: '2024-03-01', parameters: { b_soiltype_agr: 'dekzand', b_gwl_class: 'VI' } },
      ],
      'f',
    );
    expect(soil).toEqual({ b_soiltype_agr: 'zeeklei', b_gwl_class: 'VI' });
  });

  it('estimates a_c_of, a_cn_fr and a_density_sa, and names what stays missing in the reference order', () => {
    expect(() =>
      combineSoil(
        [{ b_sampling_date: null, parameters: { b_soiltype_agr: 'zeeklei', b_gwl_class: 'VI', a_som_loi: 3.5, a_n_rt: 1800 } }],
        'f',
      ),
    ).not.toThrow();
    // a_n_rt 0 leaves a_cn_fr without an estimate.
    expect(() =>
      combineSoil(
        [{ b_sampling_date: null, parameters: { b_soiltype_agr: 'zeeklei', b_gwl_class: 'VI', a_som_loi: 3.5, a_n_rt: 0 } }],
        'f',
      ),
    ).toThrow('Missing required soil parameters: a_cn_fr');
    expect(() => combineSoil([{ b_sampling_date: null, parameters: { a_c_of: 20 } }], 'f')).toThrow(
      'Missing required soil parameters: b_soiltype_agr, a_n_rt, a_cn_fr, a_density_sa, b_gwl_class',
    );
  });
});

describe('supply (4.2)', () => {
  it('fertilizer N: amount × p_n_rt / 1000, grouped by type (10.2: 350 kg KAS → 94.5, 30150 kg slurry → 123.615)', () => {
    const groups = fertilizerSupply([
      application('BAAT028', 350, 'broadcasting', '2025-03-01'),
      application('BAAT050', 30150, 'shallow injection', '2025-03-20'),
    ]);
    expect(n(total(groups.mineral))).toBe(94.5);
    expect(n(total(groups.manure))).toBe(123.615);
  });

  it('fixation: each cultivation brings its catalogue b_n_fixation in full, however short its stay (peas 100, lucerne 300, grass 0)', () => {
    const items = fixation([
      cultivation('nl_239', '2025-04-01', '2025-07-01'),
      cultivation('nl_258', '2024-04-01', null),
      cultivation('nl_265', '2020-01-01', null),
    ]);
    expect(items.map((item) => [item.id, n(item.value)])).toEqual([
      ['nl_239', 100],
      ['nl_258', 300],
      ['nl_265', 0],
    ]);
  });

  it('deposition: annual × (days + 1) / 365 over the overlap of field and timeframe, 0 without overlap', () => {
    expect(n(deposition(20, overlapFraction(YEAR, { b_start: '2020-01-01', b_end: null })))).toBe(20);
    // Field acquired on 1 July: 184 days.
    expect(deposition(20, overlapFraction(YEAR, { b_start: '2025-07-01', b_end: null })).toFixed(6)).toBe(
      new D(20).times(184).div(365).toFixed(6),
    );
    expect(n(deposition(20, overlapFraction(YEAR, { b_start: '2026-01-01', b_end: null })))).toBe(0);
  });

  it('mineralisation: veen arable 20 × 364/365 for a year ending on 31 December (10.1)', () => {
    const years = mineralisation('veen', fieldTimeframe(YEAR, { b_start: '2021-01-01', b_end: null }), []);
    expect(years.map((y) => [y.year, y.value.toFixed(3)])).toEqual([[2025, '19.945']]);
  });

  it('mineralisation: veen under grass counts 160, a full year followed by another counts 365/365', () => {
    const grass = [cultivation('nl_265', '2020-01-01', null)];
    const years = mineralisation('veen', { start: '2024-01-01', end: '2025-12-31' }, grass);
    expect(years.map((y) => [y.year, y.value.toFixed(4)])).toEqual([
      [2024, '160.0000'],
      [2025, new D(160).times(364).div(365).toFixed(4)],
    ]);
  });
});

describe('removal (4.3) and residue ammonia (4.4.3)', () => {
  const wheat = cultivation('nl_233', '2024-10-20', '2025-08-05', false, 'wheat');
  const harvest = { b_id_harvesting: 'h', b_lu: 'wheat', b_lu_harvest_date: '2025-08-05', b_lu_yield: 7830, b_lu_n_harvestable: 24 };

  it('harvest: −yield × N / 1000 (10.2: −187.92); catalogue values when the harvest has none', () => {
    expect(harvestRemoval(harvestsInOrder([wheat], [harvest])).map((i) => n(i.value))).toEqual([-187.92]);
    const empty = { ...harvest, b_lu_yield: null, b_lu_n_harvestable: null };
    expect(harvestRemoval(harvestsInOrder([wheat], [empty])).map((i) => n(i.value))).toEqual([-(7830 * 23.5) / 1000]);
  });

  it('residues removed: −Ȳ / hi × (1 − hi) × N_residue / 1000 (10.2: −52.817)', () => {
    const [item] = residueRemoval([wheat], [harvest]);
    expect(item!.value.toFixed(3)).toBe('-52.817');
    expect(n(residueRemoval([{ ...wheat, m_cropresidue: null }], [harvest])[0]!.value)).toBe(0);
  });

  it('residues left: the removal figure × (0.41 × N_residue − 5.42) / 100, a harvest without yield counting 0', () => {
    const left = { ...wheat, m_cropresidue: true };
    const factor = (0.41 * 5.3 - 5.42) / 100;
    expect(factor).toBeLessThan(0);
    expect(n(residueAmmonia([left], [harvest])[0]!.value)).toBe(0);
    const clover = cultivation('nl_800', '2025-01-01', null, true, 'clover');
    const withNullYield = [{ ...harvest, b_lu: 'clover', b_lu_yield: null }];
    expect(n(residueAmmonia([clover], withNullYield)[0]!.value)).toBe(0);
  });

  it('residues left, above the threshold: seeds (Ȳ 3240, hi 0.62, N 20) −3240 / 0.62 × 0.38 × 20 / 1000 × 0.0278 = −1.104108', () => {
    const seeds = cultivation('nl_172', '2025-03-01', '2025-08-01', true, 'seeds');
    expect(residueAmmonia([seeds], [])[0]!.value.toFixed(6)).toBe('-1.104108');
    // A harvest of 2000 and one stored without yield average to 1000 here (the quirk of 4.4.3): −0.340774.
    const measured = { b_id_harvesting: 'h1', b_lu: 'seeds', b_lu_harvest_date: '2025-08-01', b_lu_yield: 2000, b_lu_n_harvestable: 20 };
    const unmeasured = { ...measured, b_id_harvesting: 'h2', b_lu_yield: null };
    expect(residueAmmonia([seeds], [measured, unmeasured])[0]!.value.toFixed(6)).toBe('-0.340774');
  });
});

describe('emission (4.4)', () => {
  it('mineral NH3 with the catalogue factor: −350 × 270 × 0.025 / 1000 = −2.3625', () => {
    const groups = fertilizerAmmonia([application('BAAT028', 350, 'broadcasting', '2025-03-01')], []);
    expect(n(total(groups.mineral))).toBe(-2.3625);
  });

  it('mineral NH3 without a catalogue factor, from the composition: SRM KAS (NH4 135: EF 0.04552605) and Biophosphate (organic N 24.9)', () => {
    const groups = fertilizerAmmonia(
      [application('1d2e4f0b600af921', 100, null, '2025-03-01', 'kas'), application('7e4ed7a0abb1c131', 1000, null, '2025-03-01', 'bio')],
      [],
    );
    // −100 × 270 × (135² × 2.498e-4 / 100) / 1000 and −1000 × 24.9 × (24.9² × 7.021e-5 / 100) / 1000.
    expect(groups.mineral.map((item) => [item.id, item.value.toFixed(8)])).toEqual([
      ['kas', '-1.22920335'],
      ['bio', '-0.01083919'],
    ]);
  });

  it('organic NH3 by method and land use on the date: slurry shallow-injected into wheat, cropland 0.24 (10.2: −13.748)', () => {
    const wheat = cultivation('nl_233', '2024-10-20', '2025-08-05');
    const groups = fertilizerAmmonia([application('BAAT050', 30150, 'shallow injection', '2025-03-20')], [wheat]);
    expect(total(groups.manure).toFixed(3)).toBe('-13.748');
    // After the wheat ended the field is bare soil: injection 0.02.
    const later = fertilizerAmmonia([application('BAAT050', 30150, 'injection', '2025-09-01')], [wheat]);
    expect(n(total(later.manure))).toBe(-(30150 * 1.9 * 0.02) / 1000);
  });

  it('fails an organic fertilizer without method, with the reference message', () => {
    expect(() => fertilizerAmmonia([application('BAAT050', 1000, null, '2025-03-01')], [])).toThrow(FieldCalculationError);
    expect(() => fertilizerAmmonia([application('BAAT050', 1000, null, '2025-03-01')], [])).toThrow(
      /^Unsupported application method null for .+ \(farm-BAAT050\)$/,
    );
  });

  it('land use: grass or clover → grassland, other crops → cropland, nothing or bare-soil codes → bare soil', () => {
    expect(landUseClass([cultivation('nl_265', '2025-01-01', null)])).toBe('grassland');
    expect(landUseClass([cultivation('nl_233', '2025-01-01', null)])).toBe('cropland');
    expect(landUseClass([])).toBe('bare_soil');
    expect(landUseClass([cultivation('nl_6794', '2025-01-01', null)])).toBe('bare_soil');
  });

  it('nitrate: −balance × factor when the balance is positive (10.1: veen arable 0.17 × 107.025 = 18.194), else 0', () => {
    expect(nitrateLeaching(new D(107.025), 'veen', 'III', 'bare_soil').toFixed(3)).toBe('-18.194');
    expect(n(nitrateLeaching(new D(-18.7), 'zeeklei', 'VI', 'cropland'))).toBe(0);
    expect(n(nitrateLeaching(new D(100), 'dekzand', 'VII', 'grassland'))).toBe(-27);
  });
});

describe('target (4.6)', () => {
  it('by soil, groundwater and grass, pro-rated (d + 1)/365, 0 when d ≤ 0', () => {
    expect(n(target('veen', 'III', [], YEAR))).toBe(125);
    expect(n(target('dekzand', 'VII', [], YEAR))).toBe(50);
    expect(n(target('dekzand', 'VII', [cultivation('nl_265', '2025-01-01', null)], YEAR))).toBe(80);
    expect(n(target('veen', 'III', [], { start: '2025-07-01', end: '2025-12-31' }))).toBe((125 * 184) / 365);
    expect(n(target('veen', 'III', [], { start: '2025-07-01', end: '2025-07-01' }))).toBe(0);
  });
});

describe('field balance (10.1, case F-F1)', () => {
  const field: BalanceField = {
    b_id: 'F-F1',
    b_area: 2.5,
    b_start: '2021-01-01',
    b_end: null,
    b_bufferstrip: false,
    cultivations: [],
    harvests: [],
    soilAnalyses: [
      { b_sampling_date: '2025-01-10', parameters: { b_soiltype_agr: 'veen', b_gwl_class: 'III', a_som_loi: 25, a_n_rt: 8000 } },
    ],
    applications: [],
  };

  it('adds up supply, removal and ammonia, and rounds each figure on its own', () => {
    const manure = catalogueId('Rundvee vaste mest');
    const result = fieldBalance({ ...field, applications: [application(manure, 15000, 'broadcasting', '2025-09-01', 'A-F1')] }, YEAR, 20);
    expect(result.supply.fertilizers.manure.total).toBe(80);
    expect(result.supply.total).toBe(119);
    expect(result.emission.ammonia.total).toBe(-12);
    expect(result.balance).toBe(107);
    expect(result.emission.nitrate.total).toBe(-18);
    expect(result.emission.total).toBe(-31);
    expect(result.target).toBe(125);
  });

  it('gives a buffer strip an all-zero result without reading its soil', () => {
    const result = fieldBalance({ ...field, b_bufferstrip: true, soilAnalyses: [] }, YEAR, 20);
    expect(result).toMatchObject({ balance: 0, target: 0, supply: { total: 0, mineralisation: { total: 0 } } });
    expect(result.supply.mineralisation).not.toHaveProperty('years');
  });
});

describe('farm balance (5)', () => {
  const balance = (value: number) => ({
    ...fieldBalance(
      {
        b_id: 'x',
        b_area: 1,
        b_start: '2020-01-01',
        b_end: null,
        b_bufferstrip: true,
        cultivations: [],
        harvests: [],
        soilAnalyses: [],
        applications: [],
      },
      YEAR,
      20,
    ),
    balance: value,
  });

  it('weights the rounded field figures by area and leaves out failed fields and buffer strips', () => {
    const results: FieldResult[] = [
      { b_id: 'a', b_area: 3, b_bufferstrip: false, balance: { ...balance(0), target: 100 } },
      { b_id: 'b', b_area: 1, b_bufferstrip: false, balance: { ...balance(0), target: 60 } },
      { b_id: 'c', b_area: 5, b_bufferstrip: true, balance: { ...balance(0), target: 0 } },
      { b_id: 'd', b_area: 2, b_bufferstrip: false, balance: null, errorMessage: 'Missing required soil parameters: a_n_rt' },
    ];
    const farm = farmBalance(results);
    expect(farm.target).toBe(90);
    expect(farm.fields.map((f) => f.b_id)).toEqual(['c', 'a', 'd', 'b']);
    expect(farm).toMatchObject({ hasErrors: true, fieldErrorMessages: ['Missing required soil parameters: a_n_rt'] });
  });
});

describe('dose (7)', () => {
  it('multiplies as a × (c / 1000) in doubles: 20000 kg of N 4.1 g/kg is 81.99999999999999', () => {
    expect(applicationDose(20000, findFertilizer(catalogueId('Runderdrijfmest'))!).p_dose_n).toBe(81.99999999999999);
  });

  it('sums in date order, latest first, and lists each application', () => {
    const dose = fieldDose([
      { p_app_id: 'early', p_app_date: '2024-04-01', p_id: 'p', p_app_amount: 20000, fertilizer: findFertilizer('BAAT049')! },
      { p_app_id: 'late', p_app_date: '2025-03-20', p_id: 'p', p_app_amount: 30150, fertilizer: findFertilizer('BAAT050')! },
    ]);
    expect(dose.applications.map((a) => a.p_app_id)).toEqual(['late', 'early']);
    expect(dose.p_dose_n).toBe(30150 * (4.1 / 1000) + 20000 * (6.4 / 1000));
  });
});
