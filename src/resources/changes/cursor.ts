// A change feed's cursor: a position in one farm's feed, sealed so that a client can neither read it nor
// make one. The position is encrypted (AES-256-CTR, under an IV that is an HMAC of the farm and the
// position: one position has one cursor, and two positions' cursors say nothing about each other) and
// the IV, the ciphertext and the farm are signed with HMAC-SHA256, checked in constant time: a cursor
// altered, made by hand, or of another farm's feed is none. The keys come from one server secret that
// every process on the database shares (db/server-secrets.ts).
import { createCipheriv, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

const IV_BYTES = 16;
const POSITION_BYTES = 8;
const TAG_BYTES = 16;
const CURSOR_BYTES = IV_BYTES + POSITION_BYTES + TAG_BYTES;
/** The length of every cursor's text, base64url without padding. */
export const CURSOR_LENGTH = Math.ceil((CURSOR_BYTES * 4) / 3);

export interface CursorSeal {
  /** The cursor of `position` (0 is before the first entry) in the feed of `farmId`. */
  seal(farmId: string, position: number): string;
  /** The position `text` names in the feed of `farmId`, or undefined when it is no cursor this server made for that feed. */
  open(farmId: string, text: string): number | undefined;
}

export function cursorSeal(secret: Buffer): CursorSeal {
  const key = (purpose: string) => Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `akker change-feed cursor ${purpose}`, 32));
  const encryption = key('encryption');
  const signing = key('signing');
  const ivs = key('iv');
  const tag = (farmId: string, sealed: Buffer) =>
    createHmac('sha256', signing).update(farmId).update('\0').update(sealed).digest().subarray(0, TAG_BYTES);
  // In counter mode, decrypting is encrypting again.
  const crypt = (iv: Buffer, data: Buffer) => {
    const cipher = createCipheriv('aes-256-ctr', encryption, iv);
    return Buffer.concat([cipher.update(data), cipher.final()]);
  };
  return {
    seal(farmId, position) {
      const plain = Buffer.alloc(POSITION_BYTES);
      plain.writeBigUInt64BE(BigInt(position));
      const iv = createHmac('sha256', ivs).update(farmId).update('\0').update(plain).digest().subarray(0, IV_BYTES);
      const sealed = Buffer.concat([iv, crypt(iv, plain)]);
      return Buffer.concat([sealed, tag(farmId, sealed)]).toString('base64url');
    },
    open(farmId, text) {
      if (text.length !== CURSOR_LENGTH) return undefined;
      const bytes = Buffer.from(text, 'base64url');
      // Base64url has more than one spelling of some byte strings: only the one handed out is taken.
      if (bytes.length !== CURSOR_BYTES || bytes.toString('base64url') !== text) return undefined;
      const sealed = bytes.subarray(0, IV_BYTES + POSITION_BYTES);
      if (!timingSafeEqual(tag(farmId, sealed), bytes.subarray(IV_BYTES + POSITION_BYTES))) return undefined;
      const position = crypt(sealed.subarray(0, IV_BYTES), sealed.subarray(IV_BYTES)).readBigUInt64BE();
      return position <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(position) : undefined;
    },
  };
}
