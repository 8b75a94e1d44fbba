import type { CallerFaultMode } from './budget-settings.js';
import { burnRate, countsAgainstBudget } from './error-budget.js';

/** One time bucket of a service's calls and first-hand failures by class. */
export interface BurnBucket {
  startS: number;
  calls: number;
  failuresByClass: Record<string, number>;
}

/** The burn rate at a bucket's end, over the bucket and over each rolling window (null: no calls). */
export interface BurnPoint {
  startS: number;
  bucket: number | null;
  rolling: Record<string, number | null>;
}

/**
 * Burn rate over time, counted as the budget counts it (caller faults apart unless included):
 * per bucket, and over rolling windows ending at each bucket's end, so a chart can show the
 * windows an alert rule compares with its factor. Buckets must be contiguous, oldest first.
 */
export function burnSeries(
  buckets: readonly BurnBucket[],
  o: { slo: number; callerFaults: CallerFaultMode; bucketS: number; windowsS: Record<string, number> },
): BurnPoint[] {
  const allowed = 1 - o.slo / 100;
  const counted = buckets.map((b) =>
    Object.entries(b.failuresByClass).reduce(
      (s, [cls, n]) => s + (countsAgainstBudget(cls, o.callerFaults) ? n : 0),
      0,
    ),
  );
  return buckets.map((b, i) => {
    const rolling: Record<string, number | null> = {};
    for (const [name, windowS] of Object.entries(o.windowsS)) {
      const n = Math.max(1, Math.round(windowS / o.bucketS));
      let calls = 0;
      let failures = 0;
      for (let j = Math.max(0, i - n + 1); j <= i; j++) {
        calls += buckets[j]!.calls;
        failures += counted[j]!;
      }
      rolling[name] = burnRate(failures, calls, allowed);
    }
    return { startS: b.startS, bucket: burnRate(counted[i]!, b.calls, allowed), rolling };
  });
}
