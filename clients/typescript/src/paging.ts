// Paging through a list: an async iterator over its items, one request per page.
import { AkkerError } from './errors.js';

/** A page of a list, as every list of the API answers it. */
export interface Page<T> {
  data: T[];
  pagination: { limit: number; offset: number; total: number };
}

/** What an openapi-fetch call of a list answers: the page, or the error and its response. */
export interface PageResult<T> {
  data?: Page<T>;
  error?: unknown;
  response: Response;
}

/** Which page to fetch: pass both as the list's query parameters. */
export interface PageRequest {
  limit: number;
  offset: number;
}

/** The API's largest page. */
export const MAX_PAGE_SIZE = 200;

/**
 * Every item of a list, fetching page after page with `fetchPage` (`limit` items each) until the list's
 * total is reached or a page comes back empty; an error answer throws an AkkerError. Lists are in
 * creation order, so items added meanwhile come at the end; a record deleted meanwhile shifts the
 * pages after it, and one item may be skipped (the change feed is the way to follow changes).
 */
export async function* eachItem<T>(fetchPage: (page: PageRequest) => Promise<PageResult<T>>, limit = MAX_PAGE_SIZE): AsyncGenerator<T> {
  let offset = 0;
  for (;;) {
    const { data, error, response } = await fetchPage({ limit, offset });
    if (data === undefined) throw new AkkerError(response, error);
    yield* data.data;
    offset += data.data.length;
    if (data.data.length === 0 || offset >= data.pagination.total) return;
  }
}

/** A page that says where the next one starts: a portfolio calculation's, which may end before `limit`. */
export interface CutPage<T> {
  data: T[];
  pagination: { limit: number; offset: number; total: number; next_offset: number | null };
}

/** What an openapi-fetch call of a portfolio calculation answers. */
export interface CutPageResult<T> {
  data?: CutPage<T>;
  error?: unknown;
  response: Response;
}

/**
 * Every row of a portfolio calculation (one per farm of the organisation), fetching page after page with
 * `fetchPage` (at most `limit` farms each), each from the `next_offset` of the one before, until it is null;
 * an error answer throws an AkkerError. Each page is one request against the calculation limit, which the
 * client waits out as for any `429`.
 */
export async function* eachPortfolioRow<T>(
  fetchPage: (page: PageRequest) => Promise<CutPageResult<T>>,
  limit = MAX_PAGE_SIZE,
): AsyncGenerator<T> {
  for (let offset: number | null = 0; offset !== null;) {
    const { data, error, response } = await fetchPage({ limit, offset });
    if (data === undefined) throw new AkkerError(response, error);
    yield* data.data;
    offset = data.pagination.next_offset;
  }
}
