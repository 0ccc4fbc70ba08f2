// Proactive content negotiation on Accept (RFC 9110 §12.5.1), for the routes that answer in more than one
// media type. Akker answers 406 nowhere: a request whose Accept allows none of a route's types gets its
// default, as RFC 9110 lets a server do.
import type { Context } from 'hono';
import { requestHeader } from './request-headers.js';

interface MediaRange {
  type: string;
  subtype: string;
  /** 0–1; 0 means "not acceptable". */
  quality: number;
  /** Where the range stands in the field: an earlier one wins a tie. */
  position: number;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
// RFC 9110 §12.4.2: at most three decimals, never above 1.
const QUALITY = /^(?:0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/;

/** The well-formed ranges of an Accept field; a malformed element is left out, as if it were not there. */
function mediaRanges(field: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const element of field.split(',')) {
    const [range, ...parameters] = element.split(';').map((part) => part.trim().toLowerCase());
    const [type, subtype, extra] = (range ?? '').split('/');
    if (type === undefined || subtype === undefined || extra !== undefined || !TOKEN.test(type) || !TOKEN.test(subtype)) continue;
    if (type === '*' && subtype !== '*') continue;
    let quality = 1;
    let wellFormed = true;
    for (const parameter of parameters) {
      const [name, value] = parameter.split('=').map((part) => part.trim());
      if (name !== 'q') continue;
      if (value === undefined || !QUALITY.test(value)) wellFormed = false;
      else quality = Number(value);
    }
    if (wellFormed) ranges.push({ type, subtype, quality, position: ranges.length });
  }
  return ranges;
}

/** How specifically `range` names `mediaType`: 3 exactly, 2 by its type alone, 1 as any type, 0 not at all. */
function specificity(range: MediaRange, mediaType: string): number {
  const [type, subtype] = mediaType.split('/');
  if (range.type === '*') return 1;
  if (range.type !== type) return 0;
  if (range.subtype === '*') return 2;
  return range.subtype === subtype ? 3 : 0;
}

interface Preference {
  quality: number;
  specificity: number;
  position: number;
}

/** What the client says of `mediaType`: the quality of the most specific range naming it (parameters other than q are not compared). */
function preferenceFor(ranges: MediaRange[], mediaType: string): Preference | undefined {
  let best: Preference | undefined;
  for (const range of ranges) {
    const match = specificity(range, mediaType);
    if (match > 0 && (best === undefined || match > best.specificity)) {
      best = { quality: range.quality, specificity: match, position: range.position };
    }
  }
  return best;
}

const isBetter = (a: Preference, b: Preference) =>
  a.quality !== b.quality
    ? a.quality > b.quality
    : a.specificity !== b.specificity
      ? a.specificity > b.specificity
      : a.position < b.position;

/**
 * The media type of `offered` (lower case) the request's Accept prefers: the highest quality, then the
 * range that names it most specifically, then the range the client listed first, then the order of
 * `offered`. The first of `offered` without an Accept field, or when Accept allows none of them.
 */
export function negotiate<T extends string>(c: Context, offered: readonly [T, ...T[]]): T {
  const field = requestHeader(c, 'accept');
  if (field === undefined) return offered[0];
  const ranges = mediaRanges(field);
  let chosen = offered[0];
  let chosenPreference: Preference | undefined;
  for (const mediaType of offered) {
    const preference = preferenceFor(ranges, mediaType);
    if (preference === undefined || preference.quality === 0) continue;
    if (chosenPreference === undefined || isBetter(preference, chosenPreference)) {
      chosen = mediaType;
      chosenPreference = preference;
    }
  }
  return chosen;
}
