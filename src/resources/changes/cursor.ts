// A change feed's cursor: opaque to clients, it names a farm and a position in that farm's feed. The server
// checks the position against the feed's end (store.ts), so a cursor past it is refused.

export interface Cursor {
  farmId: string;
  /** The position of the last entry the client has seen in the farm's feed; 0 is before the first entry. */
  position: number;
}

// A dot between farm and position: the cursors of the global numbering before migration 0013 had a colon, and
// are refused, never read as a position of the farm's own numbering.
const SHAPE = /^([A-Za-z0-9_-]{1,64})\.(0|[1-9][0-9]{0,14})$/;

export const encodeCursor = ({ farmId, position }: Cursor): string => Buffer.from(`${farmId}.${position}`).toString('base64url');

/** The cursor `text` names, or undefined when it is none that this API hands out. */
export function decodeCursor(text: string): Cursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,120}$/.test(text)) return undefined;
  const [, farmId, position] = SHAPE.exec(Buffer.from(text, 'base64url').toString('latin1')) ?? [];
  if (farmId === undefined || position === undefined) return undefined;
  const cursor = { farmId, position: Number(position) };
  // Base64url has more than one spelling of some byte strings: only the one we hand out is taken.
  return encodeCursor(cursor) === text ? cursor : undefined;
}
