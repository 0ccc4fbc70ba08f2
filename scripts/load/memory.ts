// The resident memory of a process, from /proc (Linux).
import { readFileSync } from 'node:fs';

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  if (!line) throw new Error(`no ${field} for process ${pid}`);
  return Number(/(\d+)\s*kB/.exec(line)![1]) / 1024;
}

/** Samples the resident set size every `intervalMs`; `stop()` returns the peak seen (MiB) and the process's own high-water mark. */
export function watchMemory(pid: number, intervalMs = 250): { stop(): { peakMiB: number; highWaterMiB: number } } {
  let peak = statusField(pid, 'VmRSS');
  const timer = setInterval(() => (peak = Math.max(peak, statusField(pid, 'VmRSS'))), intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      return { peakMiB: Math.max(peak, statusField(pid, 'VmRSS')), highWaterMiB: statusField(pid, 'VmHWM') };
    },
  };
}
