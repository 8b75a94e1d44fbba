/** Raised when every console slot stayed taken for as long as a request may wait. */
export class ConsoleBusyError extends Error {
  override name = 'ConsoleBusyError';
  readonly retryAfterSeconds = 1;
}

/**
 * Bounds how many console statements run at once. Each one holds a thread of Node's libuv pool
 * (4 by default; chDB runs queries on it, and the write-ahead log's fsyncs and the inserts need
 * it too) and up to one core, so a few heavy statements cannot starve ingest or the dashboard.
 * Requests past the bound wait in arrival order, up to `maxWaitMs`.
 */
export class ConsoleGate {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    readonly slots: number,
    readonly maxWaitMs: number,
  ) {}

  get running(): number {
    return this.#running;
  }

  /** Resolves with the function that gives the slot back (call it once, in a finally). */
  async enter(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.#running < this.slots) {
      this.#running++;
      return this.#leaver();
    }
    await new Promise<void>((resolve, reject) => {
      const granted = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        resolve();
      };
      const drop = () => {
        const i = this.#waiting.indexOf(granted);
        if (i !== -1) this.#waiting.splice(i, 1);
      };
      const aborted = () => {
        drop();
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        drop();
        signal?.removeEventListener('abort', aborted);
        reject(
          new ConsoleBusyError(
            `The SQL console is busy: its ${this.slots} slots stayed taken for ${this.maxWaitMs / 1000} s. Try again in a moment.`,
          ),
        );
      }, this.maxWaitMs);
      signal?.addEventListener('abort', aborted, { once: true });
      this.#waiting.push(granted);
    });
    return this.#leaver();
  }

  #leaver(): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.#waiting.shift();
      // The slot passes straight to the next in line, so `running` stays the same.
      if (next) next();
      else this.#running--;
    };
  }
}
