// Reads a catalogue or constant table shipped in src/catalogues/data (facts from the reference implementation).
import { readFileSync } from 'node:fs';

export const loadJson = <T>(file: string): T => JSON.parse(readFileSync(new URL(`./data/${file}`, import.meta.url), 'utf8')) as T;

/** The entry of a code that a stored record holds: the code was checked when written, so none is a fault of the server. */
export function storedEntry<T>(entries: ReadonlyMap<string, T>, code: string, catalogue: string): T {
  const entry = entries.get(code);
  if (entry === undefined) throw new Error(`${code}, stored in a record, is not in the ${catalogue} catalogue`);
  return entry;
}
