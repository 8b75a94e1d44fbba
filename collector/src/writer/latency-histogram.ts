import type { LatencyHistogram } from '../types.js';

/** Insert latency bounds in seconds; chDB inserts take milliseconds, a remote server up to seconds. */
const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A fixed-bucket histogram exposed in Prometheus' cumulative form. */
export class LatencyRecorder {
  readonly #counts = new Array<number>(BOUNDS.length).fill(0);
  #count = 0;
  #sum = 0;

  observe(seconds: number): void {
    this.#count++;
    this.#sum += seconds;
    const i = BOUNDS.findIndex((le) => seconds <= le);
    if (i >= 0) this.#counts[i]!++;
  }

  snapshot(): LatencyHistogram {
    let running = 0;
    return {
      le: [...BOUNDS],
      counts: this.#counts.map((c) => {
        running += c;
        return running;
      }),
      count: this.#count,
      sumSeconds: this.#sum,
    };
  }
}
