// A field's current soil data: the newest value of each soil parameter and the analysis it comes from, by the
// rule every calculation uses (calculations/soil-values.ts).
import { eq } from 'drizzle-orm';
import { recordedLatestFirst } from '../inputs.js';
import { newestValues } from '../soil-values.js';
import type { Database } from '../../db/client.js';
import { soilAnalyses } from '../../db/schema.js';
import { numericSoilParameters } from '../../resources/soil-analyses/parameters.js';

/** Every parameter a soil analysis may hold, in the order the answer lists them. */
const SOIL_PARAMETERS = [...Object.keys(numericSoilParameters), 'b_soiltype_agr', 'b_gwl_class'];

export async function currentSoilData(db: Database, fieldId: string) {
  const analyses = await db
    .select({
      a_id: soilAnalyses.a_id,
      b_sampling_date: soilAnalyses.b_sampling_date,
      a_depth_upper: soilAnalyses.a_depth_upper,
      a_depth_lower: soilAnalyses.a_depth_lower,
      a_source: soilAnalyses.a_source,
      parameters: soilAnalyses.parameters,
    })
    .from(soilAnalyses)
    .where(eq(soilAnalyses.b_id, fieldId))
    .orderBy(...recordedLatestFirst);
  const newest = newestValues(analyses, SOIL_PARAMETERS, (analysis, parameter) => analysis.parameters[parameter]);
  return SOIL_PARAMETERS.flatMap((parameter) => {
    const found = newest[parameter];
    if (found === undefined) return [];
    const { a_id, b_sampling_date, a_depth_upper, a_depth_lower, a_source } = found.analysis;
    return [{ parameter, value: found.value, a_id, b_sampling_date, a_depth_upper, a_depth_lower, a_source }];
  });
}
