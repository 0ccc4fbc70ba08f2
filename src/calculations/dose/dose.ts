// The nutrients applied on a field (docs/calculations.md): per application amount × content, summed in
// double precision in application order (date descending), not rounded. The form a × (c / 1000) is
// the reference's, to the last bit (20000 × (4.1 / 1000) = 81.99999999999999).
import type { FertilizerEntry } from '../../catalogues/fertilizers.js';

export const DOSE_KEYS = [
  'p_dose_n',
  'p_dose_nw',
  'p_dose_p',
  'p_dose_k',
  'p_dose_eoc',
  'p_dose_s',
  'p_dose_mg',
  'p_dose_ca',
  'p_dose_na',
  'p_dose_cu',
  'p_dose_zn',
  'p_dose_co',
  'p_dose_mn',
  'p_dose_mo',
  'p_dose_b',
] as const;

export type Dose = Record<(typeof DOSE_KEYS)[number], number>;

export interface DoseApplication {
  p_app_id: string;
  p_app_date: string;
  p_id: string;
  p_app_amount: number;
  fertilizer: FertilizerEntry;
}

const content = (value: number | null) => value ?? 0;

export function applicationDose(amount: number, f: FertilizerEntry): Dose {
  const perKg = (value: number | null, divisor: number) => amount * (content(value) / divisor);
  const n = perKg(f.p_n_rt, 1000);
  return {
    p_dose_n: n,
    p_dose_nw: n * (f.p_n_wc ?? 1),
    p_dose_p: perKg(f.p_p_rt, 1000),
    p_dose_k: perKg(f.p_k_rt, 1000),
    p_dose_eoc: perKg(f.p_eoc, 1000),
    p_dose_s: perKg(f.p_s_rt, 1000),
    p_dose_mg: perKg(f.p_mg_rt, 1000),
    p_dose_ca: perKg(f.p_ca_rt, 1000),
    // The catalogue labels sodium g/kg, but the reference divides it like the trace elements (mg/kg).
    p_dose_na: perKg(f.p_na_rt, 1_000_000),
    p_dose_cu: perKg(f.p_cu_rt, 1_000_000),
    p_dose_zn: perKg(f.p_zn_rt, 1_000_000),
    p_dose_co: perKg(f.p_co_rt, 1_000_000),
    p_dose_mn: perKg(f.p_mn_rt, 1_000_000),
    p_dose_mo: perKg(f.p_mo_rt, 1_000_000),
    p_dose_b: perKg(f.p_b_rt, 1_000_000),
  };
}

export interface DoseResult extends Dose {
  applications: Array<{ p_app_id: string; p_app_date: string; p_id: string; p_name_nl: string; p_app_amount: number } & Dose>;
}

/** The applied dose of the given applications, with each application's share. */
export function fieldDose(applications: DoseApplication[]): DoseResult {
  const ordered = [...applications].sort((a, b) => (a.p_app_date < b.p_app_date ? 1 : a.p_app_date > b.p_app_date ? -1 : 0));
  const totals = Object.fromEntries(DOSE_KEYS.map((key) => [key, 0])) as Dose;
  const breakdown = ordered.map((a) => {
    const dose = applicationDose(a.p_app_amount, a.fertilizer);
    for (const key of DOSE_KEYS) totals[key] += dose[key];
    return {
      p_app_id: a.p_app_id,
      p_app_date: a.p_app_date,
      p_id: a.p_id,
      p_name_nl: a.fertilizer.p_name_nl,
      p_app_amount: a.p_app_amount,
      ...dose,
    };
  });
  return { ...totals, applications: breakdown };
}
