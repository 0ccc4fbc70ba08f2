// A calculation of several farms from inputs read once for all of them: each farm's answer, or what stopped
// it. The farm endpoints are the case of one farm, so a farm's figures are the same whichever way it is asked.

/** A farm's answer, or what its calculation threw. */
export type FarmOutcome<R> = { answer: R } | { failure: unknown };

/** What is kept of a farm's answer: all of it for the farm endpoint, less for a page of farms. */
export type Keep<A, K> = (answer: A) => K;

/** The whole answer. */
export const whole = <A>(answer: A): A => answer;

/**
 * `calculate` for each farm in turn, keeping what `keep` takes of each answer as soon as it is made (so that
 * only one farm's whole answer is held at a time); a farm that throws has its failure, and the others their
 * answers. Between two farms the event loop has its turn: a page of farms is long work on the main thread,
 * and other requests (and /health) are answered meanwhile.
 */
export async function eachFarm<A, K>(
  farmIds: readonly string[],
  calculate: (farmId: string) => A,
  keep: Keep<A, K>,
): Promise<Map<string, FarmOutcome<K>>> {
  const outcomes = new Map<string, FarmOutcome<K>>();
  for (const [index, farmId] of farmIds.entries()) {
    if (index > 0) await new Promise(setImmediate);
    try {
      outcomes.set(farmId, { answer: keep(calculate(farmId)) });
    } catch (failure) {
      outcomes.set(farmId, { failure });
    }
  }
  return outcomes;
}

/** The answer of the farm `farmId` of `outcomes`, for the farm endpoint: what stopped it is thrown on. */
export function answerOf<R>(outcomes: Map<string, FarmOutcome<R>>, farmId: string): R {
  const outcome = outcomes.get(farmId);
  if (outcome === undefined) throw new Error(`farm ${farmId} was not calculated`);
  if ('failure' in outcome) throw outcome.failure;
  return outcome.answer;
}
