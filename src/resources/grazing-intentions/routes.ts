// HTTP for a farm's grazing intentions: list them; set the one of a year.
import { farmResource } from '../farms/routes.js';
import { farmYearRoutes } from '../farm-year-routes.js';
import { recordList } from '../record-resource.js';
import { grazingIntentionParams, grazingIntentionSchema, grazingIntentionSetSchema } from './schemas.js';
import { listGrazingIntentions, setGrazingIntention } from './store.js';

const grazingIntentions = recordList({
  kind: 'grazing intention',
  plural: 'grazing intentions',
  schema: grazingIntentionSchema,
  parent: farmResource,
});

export const grazingIntentionRoutes = farmYearRoutes(grazingIntentions, grazingIntentionParams, {
  list: {
    summary: 'List the grazing intentions of a farm',
    description: 'Ordered by year, earliest first. A year that is not listed counts as no intention to graze.',
    list: listGrazingIntentions,
  },
  put: {
    operationId: 'setGrazingIntentionOfFarm',
    summary: 'Set whether a farm intends to graze in a year (owner or advisor)',
    description: '201 when the year had no intention yet, 200 when it had one (changed, or the same and left as it was).',
    kept: 'The grazing intention, changed or as it was.',
    body: grazingIntentionSetSchema,
    put: async (tx, farmId, year, { b_grazing_intention }) => {
      const { grazingIntention, change } = await setGrazingIntention(tx, farmId, year, b_grazing_intention);
      return { record: grazingIntention, change };
    },
  },
});
