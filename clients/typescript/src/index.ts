// The client's public face.
export { createAkkerClient, createGeoJsonClient, type AkkerClient, type AkkerClientOptions, type AkkerGeoJsonClient } from './client.js';
export { AkkerError, type Problem } from './errors.js';
export {
  eachItem,
  eachPortfolioRow,
  MAX_PAGE_SIZE,
  type CutPage,
  type CutPageResult,
  type Page,
  type PageRequest,
  type PageResult,
} from './paging.js';
export type { RetryOptions } from './retrying-fetch.js';
export type { components, operations, paths } from './openapi.js';
