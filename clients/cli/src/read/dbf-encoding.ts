// The text encoding of a .dbf: what its .cpg names (GIS software writes "UTF-8", "1252", "ANSI 1252",
// "ISO-8859-1" …); without one, UTF-8 when its records are valid UTF-8, else Windows-1252 (Latin-1 with more),
// the encoding of dBASE files from Dutch and other western European software.
import { CommandFailure } from '../failures.js';

/** Code page numbers as a .cpg writes them, and the WHATWG label of each. */
const CODE_PAGES: Record<string, string> = {
  '65001': 'utf-8',
  '1250': 'windows-1250',
  '1251': 'windows-1251',
  '1252': 'windows-1252',
  '28591': 'iso-8859-1',
  '28605': 'iso-8859-15',
  '8859_1': 'iso-8859-1',
  '8859_15': 'iso-8859-15',
};

function labelOf(cpg: string): string {
  const text = cpg.trim().replace(/^ANSI\s+/i, '');
  const label = CODE_PAGES[text] ?? text;
  try {
    return new TextDecoder(label).encoding;
  } catch {
    throw new CommandFailure(
      `the .cpg names an encoding this command does not know (${cpg.trim()}): give the .dbf as UTF-8 or Windows-1252`,
    );
  }
}

const isUtf8 = (bytes: Uint8Array) => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

/** The WHATWG label of the .dbf's encoding. */
export function dbfEncoding(cpg: string | undefined, dbf: Uint8Array | undefined): string {
  if (cpg !== undefined && cpg.trim() !== '') return labelOf(cpg);
  return dbf !== undefined && isUtf8(dbf) ? 'utf-8' : 'windows-1252';
}
