// A reason the process cannot start that the operator can act on: told in one line that says what to
// do, without a stack (it is not a fault of the program).
export class StartupError extends Error {}

/** `url` without its password, to be shown in a message. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unreadable URL)';
  }
}
