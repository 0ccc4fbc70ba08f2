// How long /health keeps a client waiting while a server works on something else.

/** Asks /health one request after the other until `stop` is called; resolves with the longest wait. */
export function pollHealth(base: string): { stop: () => Promise<number> } {
  let running = true;
  let longest = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${base}/health`)).arrayBuffer();
      longest = Math.max(longest, performance.now() - started);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return longest;
    },
  };
}
