// CPU time spent by processes, as /proc tells it (Linux): user and system time, in milliseconds. Per
// request it moves far less with a shared machine's load than requests per second do.
import { readdirSync, readFileSync } from 'node:fs';

/** /proc counts in clock ticks; Linux reports 100 a second to user space on every architecture it runs on. */
const TICKS_PER_SECOND = 100;

/** utime + stime of one process (all its threads), or null when it has ended. */
function processTicks(pid: number): { ticks: number; command: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command is in parentheses and may hold spaces: the fields after its closing one are fixed.
    const close = stat.lastIndexOf(')');
    const command = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    return { ticks: Number(fields[11]) + Number(fields[12]), command };
  } catch {
    return null;
  }
}

/** CPU milliseconds of `pid` so far (its threads included). */
export function processCpuMs(pid: number): number {
  return ((processTicks(pid)?.ticks ?? 0) * 1000) / TICKS_PER_SECOND;
}

/** CPU milliseconds so far of every PostgreSQL process on this machine (the server's backends and its helpers). */
export function postgresCpuMs(): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const process = processTicks(Number(entry));
    if (process?.command === 'postgres') ticks += process.ticks;
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}
