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

/** The CPU ticks so far of each PostgreSQL process on this machine (the server's backends and its helpers), by pid. */
export function postgresCpu(): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const process = processTicks(Number(entry));
    if (process?.command === 'postgres') ticks.set(Number(entry), process.ticks);
  }
  return ticks;
}

/**
 * CPU milliseconds the PostgreSQL processes spent since `before` (postgresCpu): each process still there,
 * by what it added, and each new one whole. A process that ended meanwhile (an idle connection closed)
 * takes its time along: a sum over all processes would go down then.
 */
export function postgresCpuMsSince(before: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, now] of postgresCpu()) ticks += now - (before.get(pid) ?? 0);
  return (ticks * 1000) / TICKS_PER_SECOND;
}
