// Reads a catalogue or constant table shipped in src/catalogues/data (facts from the reference implementation).
import { readFileSync } from 'node:fs';

export const loadJson = <T>(file: string): T => JSON.parse(readFileSync(new URL(`./data/${file}`, import.meta.url), 'utf8')) as T;
