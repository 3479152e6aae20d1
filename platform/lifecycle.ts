import type { Logger } from 'pino';

type Stopper = { name: string; stop: () => Promise<void> };

/**
 * Stops what a process started, in reverse order, once, on SIGINT/SIGTERM or on demand:
 * the API stops taking requests first, the worker drains, the dev server goes last.
 */
export class Lifecycle {
  private readonly stoppers: Stopper[] = [];
  private stopping: Promise<void> | undefined;

  constructor(private readonly logger: Logger) {}

  /** Registers something to stop at shutdown. */
  add(name: string, stop: () => Promise<void>): void {
    this.stoppers.push({ name, stop });
  }

  /** Stops everything registered, last-started first; errors are logged, not thrown. */
  shutdown(reason: string): Promise<void> {
    this.stopping ??= (async () => {
      this.logger.info({ reason }, 'shutting down');
      for (const { name, stop } of [...this.stoppers].reverse()) {
        try {
          await stop();
          this.logger.info({ component: name }, 'stopped');
        } catch (error) {
          this.logger.error({ component: name, err: error }, 'failed to stop cleanly');
        }
      }
    })();
    return this.stopping;
  }

  /** Shuts down on SIGINT/SIGTERM and resolves when done; a second signal forces exit. */
  untilSignal(): Promise<void> {
    return new Promise((resolve) => {
      const handler = (signal: NodeJS.Signals) => {
        if (this.stopping) {
          this.logger.warn({ signal }, 'second signal: exiting now');
          process.exit(130);
        }
        void this.shutdown(signal).then(resolve);
      };
      process.once('SIGINT', handler);
      process.once('SIGTERM', handler);
    });
  }
}
