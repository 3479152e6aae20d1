import { ReadsSaturatedError } from './api-reads-queue.ts';

/**
 * A semaphore with a bounded waiting line: at most `concurrency` tasks run, at most `maxQueued`
 * wait, and one more is refused with `ReadsSaturatedError` (the API answers 503 + Retry-After).
 */
export class BoundedGate {
  private running = 0;
  private readonly line: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxQueued: number,
    private readonly retryAfterSeconds: number,
    private readonly what: string,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.line.length >= this.maxQueued) {
        throw new ReadsSaturatedError(
          `${this.line.length} ${this.what} are already waiting (limit ${this.maxQueued})`,
          this.retryAfterSeconds,
        );
      }
      await new Promise<void>((resolve) => this.line.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.line.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
