// What stops a command before or while it writes: a usage, file or connection problem (exit code 2).
// Features Akker or the local checks refuse are not failures of the command: the summary lists them (exit code 1).

export class CommandFailure extends Error {
  override readonly name = 'CommandFailure';
}

export const EXIT = { done: 0, someRefused: 1, failed: 2 } as const;
