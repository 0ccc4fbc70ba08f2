// The degradation of the organic-matter balance at its edges (docs/calculations.md): the temperature
// correction to 20 digits, the cap, the zero above about 72 % organic matter, and the length in years.
import { describe, expect, it } from 'vitest';
import { D } from '../../src/calculations/numbers.js';
import { DEGRADATION } from '../../src/calculations/organic-matter-balance/constants.js';
import { annualDegradation, yearsOf } from '../../src/calculations/organic-matter-balance/degradation.js';
import { densityFromOrganicMatter } from '../../src/calculations/soil-values.js';

const soil = (som: number, density: number) => ({ som: new D(som), density: new D(density) });

describe('organic-matter degradation', () => {
  it('corrects the rate to 9.3 °C with 2^((9.3 − 13) / 10), to 20 significant digits', () => {
    expect(DEGRADATION.temperatureCorrection.toString()).toBe('0.77378249677119495252');
  });

  it('gives 4.2 % organic matter on sand under grassland 1086.229… kg/ha a year', () => {
    const density = densityFromOrganicMatter(new D(4.2), 'dekzand');
    expect(annualDegradation({ som: new D(4.2), density: new D(density.toNumber()) }, true).toFixed(4)).toBe('1086.2293');
  });

  it('keeps the yearly figure at 3500 at most, and at 0 where the logarithmic rate turns negative', () => {
    expect(annualDegradation(soil(10, 1.1), false).toNumber()).toBe(3500);
    expect(annualDegradation(soil(72, 0.5), true).toNumber()).toBeGreaterThan(0);
    expect(annualDegradation(soil(73, 0.5), true).toNumber()).toBe(0);
    expect(annualDegradation(soil(0, 1.3), false).toNumber()).toBe(0);
  });

  it('counts the timeframe in years of 365 days, leap days included', () => {
    expect(yearsOf({ start: '2025-01-01', end: '2025-12-31' }).toNumber()).toBe(1);
    expect(yearsOf({ start: '2024-01-01', end: '2024-12-31' }).eq(new D(366).div(365))).toBe(true);
    expect(yearsOf({ start: '2024-01-01', end: '2025-12-31' }).eq(new D(731).div(365))).toBe(true);
    expect(yearsOf({ start: '2025-06-01', end: '2025-06-01' }).eq(new D(1).div(365))).toBe(true);
  });
});
