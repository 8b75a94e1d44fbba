/**
 * How far a panel's counts can be trusted under trace sampling, per service: counted exactly in
 * process (the preload's counts), estimated from sampled spans (each counting 1/p, with the
 * Horvitz-Thompson variance of that sum), or taken as stored because no span said it was sampled.
 */
export type CountTrust =
  | { kind: 'exact' }
  | { kind: 'estimated' /** half-width of the 95% interval, as a fraction of the count */; margin: number }
  | { kind: 'as-stored' };

/** z for a two-sided 95% interval. */
const Z95 = 1.96;
/** Below this share counted exactly, the estimate's margin is what a reader needs to know. */
const EXACT_SHARE = 0.999;

export function countTrust(total: number, exact: number, variance: number): CountTrust {
  if (total > 0 && exact >= total * EXACT_SHARE) return { kind: 'exact' };
  if (variance > 0 && total > 0) return { kind: 'estimated', margin: (Z95 * Math.sqrt(variance)) / total };
  return { kind: 'as-stored' };
}

export function trustText(t: CountTrust): string {
  if (t.kind === 'exact') return 'exact';
  if (t.kind === 'estimated') return `±${(t.margin * 100).toFixed(t.margin < 0.1 ? 1 : 0)}%`;
  return 'as stored';
}

export function trustTitle(t: CountTrust): string {
  if (t.kind === 'exact') return 'exact: counted in process by the preload, whatever the trace sampler kept';
  if (t.kind === 'estimated')
    return `estimated from sampled spans (each counts 1/p): ±${(t.margin * 100).toFixed(1)}% at 95%`;
  return 'as stored: no span of this range said it was sampled, so each counts 1';
}
