import type { ClassifyContext } from '../types.js';

/** Options beyond the shared ClassifyContext: a clock, so date-based waits are testable. */
export interface HttpClassifyContext extends ClassifyContext {
  /** Milliseconds since the epoch used to turn HTTP-dates and reset epochs into seconds. */
  nowMs?: number;
}
