// A process's resident memory, as /proc tells it.
import { readdirSync, readFileSync } from 'node:fs';

/** Resident MiB of `pid` and of every process below it. */
export function residentMiB(pid: number): number {
  let kib = 0;
  const visit = (id: number) => {
    try {
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${id}/status`, 'utf8'))?.[1] ?? 0);
      for (const task of readdirSync(`/proc/${id}/task`)) {
        for (const child of readFileSync(`/proc/${id}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) visit(Number(child));
      }
    } catch {
      // The process ended between two reads.
    }
  };
  visit(pid);
  return kib / 1024;
}
