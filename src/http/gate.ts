// Work that costs much memory while it runs, let through a few at a time: the rest wait their turn, in
// the order they came.
export class Gate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  /** `width`: how many may run at once. */
  constructor(private readonly width: number) {}

  async through<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.width) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The place passes to the next in line, or is given up.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
