// The largest whole number in a range that passes a test which holds up to some point and fails beyond it.

/**
 * The largest k in [lo, hi] with `passes(k)`, given that `passes(lo)` holds and that the test, once failed,
 * fails for every larger k. `guess` is where to look first: from a close guess the answer costs two tests
 * (the guess and the one after it); from a poor one the search gallops away from it and then halves.
 */
export function largestPassing(passes: (k: number) => boolean, lo: number, hi: number, guess: number): number {
  let good = lo;
  let bad = hi + 1;
  const test = (k: number) => {
    if (passes(k)) good = k;
    else bad = k;
  };
  const start = Math.min(Math.max(Math.floor(guess), lo), hi);
  if (start > good) test(start);
  const guessFailed = bad === start;
  for (let step = 1; bad - good > 1; step *= 2) {
    if (!guessFailed && good + step < bad) test(good + step);
    else if (guessFailed && bad - step > good) test(bad - step);
    else break;
  }
  while (bad - good > 1) test(Math.floor((good + bad) / 2));
  return good;
}
