// The part of autocannon 8's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      headers?: Record<string, string>;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** A number of requests to send instead of a duration. */
      amount?: number;
      /** Seconds a request may take before it counts as an error (default 10). */
      timeout?: number;
    }

    interface Result {
      /** Seconds the run lasted. */
      duration: number;
      errors: number;
      timeouts: number;
      statusCodeStats: Record<string, { count: number }>;
    }

    interface Instance extends PromiseLike<Result> {
      /** `responseTime` in milliseconds, with sub-millisecond precision. */
      on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
