import type { TraceRow } from '@faultline/sql';
import type { SpanWriter, WriterStats } from '../../../src/types.js';

/**
 * A writer that accepts everything at once and whose drain() waits until `release()`: it holds a
 * collector mid-shutdown, so what the receiver answers meanwhile can be observed.
 */
export function heldWriter(): SpanWriter & { rows: TraceRow[]; release(): void } {
  const rows: TraceRow[] = [];
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    rows,
    release: () => release(),
    write: async (batch) => {
      rows.push(...batch);
    },
    drain: () => held,
    settle: async () => {},
    close: () => held,
    stats: () => ({ queueDepth: 0, accepted: rows.length }) as unknown as WriterStats,
  };
}
