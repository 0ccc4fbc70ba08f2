// HTTP for a farm's derogations: list the years held; hold or give up one year.
import { farmResource } from '../farms/routes.js';
import { farmYearRoutes } from '../farm-year-routes.js';
import { recordList } from '../record-resource.js';
import { derogationParams, derogationSchema } from './schemas.js';
import { holdDerogation, listDerogations, releaseDerogation } from './store.js';

const derogations = recordList({ kind: 'derogation', plural: 'derogations', schema: derogationSchema, parent: farmResource });

export const derogationRoutes = farmYearRoutes(derogations, derogationParams, {
  list: {
    summary: 'List the years in which a farm holds a derogation',
    description: 'Ordered by year, earliest first.',
    list: listDerogations,
  },
  put: {
    operationId: 'holdDerogationOfFarm',
    summary: 'Record that a farm holds a derogation for a year (owner or advisor)',
    description: 'Idempotent: 201 when the year is new, 200 when the farm held it already (nothing changes). No body.',
    kept: 'The farm held the derogation already.',
    put: async (tx, farmId, year) => {
      const { derogation, created } = await holdDerogation(tx, farmId, year);
      return { record: derogation, change: created ? 'create' : null };
    },
  },
  delete: {
    operationId: 'deleteDerogationOfFarm',
    summary: 'Remove the derogation of a year (owner or advisor)',
    response: 'Removed. A year the farm does not hold (or no longer holds) answers 404.',
    remove: releaseDerogation,
  },
});
