// Soil parameters Akker stores: unit and physically valid range of each (out of range → 400).
export const soilTypes = ['moerige_klei', 'rivierklei', 'dekzand', 'zeeklei', 'dalgrond', 'veen', 'loess', 'duinzand', 'maasklei'] as const;

export const groundwaterClasses = [
  'I',
  'Ia',
  'Ic',
  'II',
  'IIa',
  'IIb',
  'IIc',
  'III',
  'IIIa',
  'IIIb',
  'IV',
  'IVu',
  'IVc',
  'V',
  'Va',
  'Vao',
  'Vad',
  'Vb',
  'Vbo',
  'Vbd',
  'sV',
  'sVb',
  'VI',
  'VIo',
  'VId',
  'VII',
  'VIIo',
  'VIId',
  'VIII',
  'VIIIo',
  'VIIId',
] as const;

interface NumericParameter {
  unit: string;
  min: number;
  max: number;
  description: string;
}

export const numericSoilParameters = {
  a_al_ox: { unit: 'mmol Al/kg', min: 0, max: 1000, description: 'Aluminium, oxalate extractable' },
  a_c_of: { unit: 'g C/kg', min: 0, max: 600, description: 'Organic carbon' },
  a_ca_co: { unit: 'mmol+/kg', min: 0, max: 660, description: 'Calcium, CEC occupation' },
  a_ca_co_po: { unit: '%', min: 0, max: 100, description: 'Calcium share of the CEC' },
  a_caco3_if: { unit: '%', min: 0, max: 100, description: 'Carbonated lime' },
  a_cec_co: { unit: 'mmol+/kg', min: 0, max: 1000, description: 'Cation exchange capacity' },
  a_clay_mi: { unit: '%', min: 0, max: 100, description: 'Clay content' },
  a_cn_fr: { unit: '-', min: 0, max: 200, description: 'Carbon to nitrogen ratio' },
  a_com_fr: { unit: '-', min: 0, max: 1, description: 'Carbon to organic matter ratio' },
  a_cu_cc: { unit: 'µg Cu/kg', min: 0, max: 1_000_000, description: 'Copper, CaCl2 extractable' },
  a_density_sa: { unit: 'g/cm³', min: 0.5, max: 3, description: 'Bulk density' },
  a_fe_ox: { unit: 'mmol Fe/kg', min: 0, max: 1000, description: 'Iron, oxalate extractable' },
  a_k_cc: { unit: 'mg K/kg', min: 0, max: 600, description: 'Potassium, CaCl2 extractable' },
  a_k_co: { unit: 'mmol+/kg', min: 0, max: 400, description: 'Potassium, CEC occupation' },
  a_k_co_po: { unit: '%', min: 0, max: 100, description: 'Potassium share of the CEC' },
  a_mg_cc: { unit: 'mg Mg/kg', min: 0, max: 1100, description: 'Magnesium, CaCl2 extractable' },
  a_mg_co: { unit: 'mmol+/kg', min: 0, max: 600, description: 'Magnesium, CEC occupation' },
  a_mg_co_po: { unit: '%', min: 0, max: 100, description: 'Magnesium share of the CEC' },
  a_n_pmn: { unit: 'mg N/kg', min: 0, max: 1000, description: 'Potentially mineralisable nitrogen' },
  a_n_rt: { unit: 'mg N/kg', min: 0, max: 30_000, description: 'Total nitrogen' },
  a_nh4_cc: { unit: 'mg N/kg', min: 0, max: 1000, description: 'Ammonium, CaCl2 extractable' },
  a_nmin_cc: { unit: 'kg N/ha', min: 0, max: 1000, description: 'Mineral nitrogen' },
  a_no3_cc: { unit: 'mg N/kg', min: 0, max: 1000, description: 'Nitrate, CaCl2 extractable' },
  a_p_al: { unit: 'mg P2O5/100 g', min: 0, max: 250, description: 'Phosphate, ammonium lactate extractable (P-Al)' },
  a_p_cc: { unit: 'mg P/kg', min: 0, max: 100, description: 'Phosphorus, CaCl2 extractable (P-CaCl2)' },
  a_p_ox: { unit: 'mmol P/kg', min: 0, max: 1000, description: 'Phosphorus, oxalate extractable' },
  a_p_rt: { unit: 'g P/kg', min: 0, max: 100, description: 'Total phosphorus' },
  a_p_sg: { unit: '%', min: 0, max: 100, description: 'Phosphate saturation degree' },
  a_p_wa: { unit: 'mg P2O5/l', min: 0, max: 250, description: 'Phosphate, water extractable (Pw)' },
  a_ph_cc: { unit: '-', min: 2, max: 10, description: 'Acidity, pH in CaCl2' },
  a_s_rt: { unit: 'mg S/kg', min: 0, max: 10_000, description: 'Total sulphur' },
  a_sand_mi: { unit: '%', min: 0, max: 100, description: 'Sand content' },
  a_silt_mi: { unit: '%', min: 0, max: 100, description: 'Silt content' },
  a_som_loi: { unit: '%', min: 0, max: 100, description: 'Organic matter, loss on ignition' },
  a_zn_cc: { unit: 'µg Zn/kg', min: 0, max: 1_000_000, description: 'Zinc, CaCl2 extractable' },
} satisfies Record<string, NumericParameter>;

export type NumericSoilParameter = keyof typeof numericSoilParameters;
