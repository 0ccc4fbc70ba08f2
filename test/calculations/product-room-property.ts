// The property of the dose recommendation in amounts of a product: an application of exactly the amount
// leaves the room of every norm at 0 or more, except a norm the application does not fill at all (it keeps
// the room it had), and 0.1 unit more takes the binding norm's room below 0.
import { expect } from 'vitest';

type Json = Record<string, any>;

export interface AmountAnswer {
  p_id: string;
  status: string;
  max_amount_display: number | null;
  binding: string | null;
}

/** What the norms answer (its room and filling) once an application `storedId` of the amount is stored. */
export function expectRoomsKept(answer: AmountAnswer, atMax: { room: Json; filling: Json }, storedId: string) {
  const where = `${answer.p_id} (${answer.status}, ${answer.max_amount_display})`;
  for (const [norm, room] of Object.entries<number | null>(atMax.room)) {
    if (room === null || room >= 0) continue;
    const stored = (atMax.filling[norm].applicationFilling as Json[]).find((a) => a.p_app_id === storedId)!;
    expect(stored.normFilling, `${where}: ${norm} room ${room} at the amount, filled by it`).toBe(0);
  }
}

/** The rooms once 0.1 unit more is stored. */
export function expectBindingExceeded(answer: AmountAnswer, beyond: Json) {
  expect(beyond[answer.binding!], `${answer.p_id}: ${answer.binding} room 0.1 unit beyond ${answer.max_amount_display}`).toBeLessThan(0);
}

/** The next amount on the grid of 0.1 unit, as a client would write it. */
export const nextTenth = (display: number) => (Math.round(display * 10) + 1) / 10;
