// The gate lets `width` pieces of work run at once and the others through in the order they came,
// whether the work before them ends or fails.
import { expect, it } from 'vitest';
import { Gate } from '../../src/http/gate.js';

it('runs at most its width at once, the rest in the order they came, and passes on the place of work that fails', async () => {
  const gate = new Gate(2);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const ends: Array<(failed: boolean) => void> = [];
  const work = (n: number) =>
    gate.through(async () => {
      started.push(n);
      most = Math.max(most, ++running);
      const failed = await new Promise<boolean>((resolve) => ends.push(resolve));
      running--;
      if (failed) throw new Error(`work ${n} failed`);
      return n;
    });
  const done = [1, 2, 3, 4, 5].map((n) => work(n).catch((error: Error) => error.message));
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  await settle();
  expect(started).toEqual([1, 2]);
  ends.shift()!(true);
  await settle();
  expect(started).toEqual([1, 2, 3]);
  while (ends.length > 0) {
    ends.shift()!(false);
    await settle();
  }
  expect(await Promise.all(done)).toEqual(['work 1 failed', 2, 3, 4, 5]);
  expect(started).toEqual([1, 2, 3, 4, 5]);
  expect(most).toBe(2);
});
