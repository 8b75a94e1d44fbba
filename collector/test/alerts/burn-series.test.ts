import { describe, expect, it } from 'vitest';
import { type BurnBucket, burnSeries } from '../../src/budget/index.js';

// Three 5-minute buckets against a 99% SLO (1% of calls may fail):
//   100 calls, 1 rate_limit        → 1 / 100 / 1%  = 1×
//   100 calls, 50 validation       → caller faults apart: 0×; counted: 50×
//   200 calls, 4 transient         → 4 / 200 / 1%  = 2×
// Rolling 10 minutes at each bucket's end: 1/100 → 1×, 1/200 → 0.5×, 4/300 → 1.33×.
const BUCKETS: BurnBucket[] = [
  { startS: 0, calls: 100, failuresByClass: { rate_limit: 1 } },
  { startS: 300, calls: 100, failuresByClass: { validation: 50 } },
  { startS: 600, calls: 200, failuresByClass: { transient: 4 } },
];

describe('burnSeries (the Alerts page chart)', () => {
  it('counts as the budget does, per bucket and over rolling windows', () => {
    const points = burnSeries(BUCKETS, {
      slo: 99,
      callerFaults: 'exclude',
      bucketS: 300,
      windowsS: { '10m': 600 },
    });
    expect(points.map((p) => p.bucket?.toFixed(3))).toEqual(['1.000', '0.000', '2.000']);
    expect(points.map((p) => p.rolling['10m']?.toFixed(3))).toEqual(['1.000', '0.500', '1.333']);
  });

  it('counts caller faults when they are included, and says null where nothing was called', () => {
    const points = burnSeries([...BUCKETS, { startS: 900, calls: 0, failuresByClass: {} }], {
      slo: 99,
      callerFaults: 'include',
      bucketS: 300,
      windowsS: { '5m': 300 },
    });
    expect(points.map((p) => (p.bucket === null ? null : Number(p.bucket.toFixed(6))))).toEqual([
      1,
      50,
      2,
      null,
    ]);
    expect(points[3]!.rolling['5m']).toBeNull();
  });
});
