// The progress of the writes on standard error: a bar with the time left, and a note while a 429 is waited out.
import { SingleBar } from 'cli-progress';

export interface Progress {
  start(total: number): void;
  advance(): void;
  rateLimited(seconds: number): void;
  stop(): void;
}

export function progressBar(stream: NodeJS.WriteStream): Progress {
  const bar = new SingleBar({
    stream,
    format: 'writing {bar} {value}/{total} features | about {eta_formatted} left{note}',
    etaBuffer: 50,
    hideCursor: true,
  });
  let waitingUntil = 0;
  const note = () => (Date.now() < waitingUntil ? ` | rate limit: waiting ${Math.ceil((waitingUntil - Date.now()) / 1000)} s` : '');
  return {
    start: (total) => bar.start(total, 0, { note: '' }),
    advance: () => bar.increment(1, { note: note() }),
    rateLimited: (seconds) => {
      waitingUntil = Math.max(waitingUntil, Date.now() + seconds * 1000);
      bar.update({ note: note() });
    },
    stop: () => bar.stop(),
  };
}

/** No progress shown: for a run whose standard error is not a terminal. */
export const silentProgress: Progress = { start() {}, advance() {}, rateLimited() {}, stop() {} };
