// When a key created on the API Keys page stops working.
export const EXPIRY_CHOICES = [
  { value: 'never', label: 'Never' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In 365 days' },
  { value: 'date', label: 'On a date' },
] as const;

const DAY_MS = 24 * 60 * 60 * 1000;

export type ExpiryResult = { ok: true; expiresAt: Date | null } | { ok: false; field: 'expiry' | 'expires_on'; message: string };

export const isoDay = (date: Date): string => date.toISOString().slice(0, 10);

/** A key chosen to expire "on a date" works through the end of that day (UTC). */
export function expiryOf(choice: string | undefined, date: string | undefined, now: Date): ExpiryResult {
  switch (choice) {
    case 'never':
    case undefined:
      return { ok: true, expiresAt: null };
    case '30':
    case '90':
    case '365':
      return { ok: true, expiresAt: new Date(now.getTime() + Number(choice) * DAY_MS) };
    case 'date': {
      const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date?.trim() ?? '');
      const end = day && new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]), 23, 59, 59, 999));
      if (!day || !end || isoDay(end) !== day[0])
        return { ok: false, field: 'expires_on', message: 'Enter the date as YYYY-MM-DD, for example 2027-01-31.' };
      if (end.getTime() <= now.getTime()) return { ok: false, field: 'expires_on', message: 'Choose today or a later date.' };
      return { ok: true, expiresAt: end };
    }
    default:
      return { ok: false, field: 'expiry', message: 'Choose when the key expires.' };
  }
}
