// A change feed's cursor: opaque to clients, it names a farm and a position in that farm's feed.

export interface Cursor {
  farmId: string;
  /** The last change_id the client has seen; 0 is before the first entry. */
  changeId: number;
}

const SHAPE = /^([A-Za-z0-9_-]{1,64}):(0|[1-9][0-9]{0,14})$/;

export const encodeCursor = ({ farmId, changeId }: Cursor): string => Buffer.from(`${farmId}:${changeId}`).toString('base64url');

/** The cursor `text` names, or undefined when it is none that this API handed out. */
export function decodeCursor(text: string): Cursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,120}$/.test(text)) return undefined;
  const decoded = Buffer.from(text, 'base64url').toString('latin1');
  const [, farmId, changeId] = SHAPE.exec(decoded) ?? [];
  if (farmId === undefined || changeId === undefined) return undefined;
  const cursor = { farmId, changeId: Number(changeId) };
  // Base64url has more than one spelling of some byte strings: only the one we hand out is taken.
  return encodeCursor(cursor) === text ? cursor : undefined;
}
