// The constant tables of the nitrogen balance (facts from the reference, in src/catalogues/data).
import { loadJson } from '../catalogues/data.js';

export type LandUseClass = 'grassland' | 'cropland' | 'bare_soil';

const mineralisationRows =
  loadJson<Array<{ b_soiltype_agr: string; grassland: number; arable: number }>>('soil-mineralisation-defaults.json');
/** kg N/ha/yr by soil type, for grassland and for arable land. */
export const mineralisationDefaults = new Map(mineralisationRows.map((row) => [row.b_soiltype_agr, row]));

const leachingRows =
  loadJson<Array<{ b_soiltype_agr: string; b_gwl_class: string | null; factor_grassland: number; factor_cropland_or_bare_soil: number }>>(
    'nitrate-leaching-factors.json',
  );

/** The leaching factors of a soil type, and for the sandy soils its groundwater class; undefined when unknown. */
export const leachingFactors = (soilType: string, gwlClass: string) =>
  leachingRows.find((row) => row.b_soiltype_agr === soilType && (row.b_gwl_class === null || row.b_gwl_class === gwlClass));

export const soilTypesWithGwlFactors = new Set(leachingRows.filter((row) => row.b_gwl_class !== null).map((row) => row.b_soiltype_agr));

const targetRows =
  loadJson<Array<{ b_soiltype_agr: string; b_gwl_class: string; target_grassland: number; target_arable: number }>>(
    'nitrogen-balance-targets.json',
  );
/** Target N surplus in kg N/ha/yr by soil type and groundwater class. */
export const targetFor = (soilType: string, gwlClass: string) =>
  targetRows.find((row) => row.b_soiltype_agr === soilType && row.b_gwl_class === gwlClass);

const landUseRows = loadJson<Array<{ b_lu_croprotation: string; land_use_class: 'grassland' | 'cropland' }>>('croprotation-land-use.json');
export const landUseOfCropGroup = new Map(landUseRows.map((row) => [row.b_lu_croprotation, row.land_use_class]));

/** Crop codes that never make a field grassland or cropland. */
export const bareSoilCropCodes = new Set(
  loadJson<Array<{ b_lu_catalogue: string }>>('bare-soil-crop-codes.json').map((row) => row.b_lu_catalogue),
);

const organicFactorRows = loadJson<Array<{ p_app_method: string } & Record<LandUseClass, number>>>('ammonia-emission-factors-organic.json');
/** NH3 emission factor of NH4-N of a non-mineral fertilizer, by method and land use on the application date. */
export const organicAmmoniaFactors = new Map(organicFactorRows.map((row) => [row.p_app_method, row]));

export const SANDY_SOILS = new Set(['dekzand', 'dalgrond', 'duinzand', 'loess']);
