import { type BudgetCounts, computeBudget, edgeBudgetShare, pickHeadline } from '@faultline/collector/budget';
import { describe, expect, it } from 'vitest';
import { predictedEndToEnd, predictedMixture, stepReliability } from '../src/lib/compounding';

const DAY = 86_400;
const TO = 1_800_000_000;
const counts = (range: number, windows: Partial<BudgetCounts['windows']>, period: number): BudgetCounts => ({
  range,
  windows: { '5m': 0, '30m': 0, '1h': 0, '6h': 0, '3d': 0, ...windows },
  period,
});

describe('computeBudget', () => {
  // A service that has made 1,000 calls every 5 minutes for the whole 30 days (8,640,000 calls),
  // and in the last 5 minutes 347 of them failed with rate_limit: a burn of 34.7×.
  const steady = {
    service: 'payments',
    total: counts(1_000, { '5m': 1_000, '1h': 12_000, '6h': 72_000, '3d': 864_000 }, 8_640_000),
    firstSeenS: TO - 30 * DAY,
    failuresByClass: {
      rate_limit: counts(347, { '5m': 347, '1h': 347, '6h': 347, '3d': 347 }, 347),
      validation: counts(100, { '5m': 100, '1h': 100, '6h': 100, '3d': 100 }, 100),
    },
  };
  const settings = { slo: 99, periodS: 30 * DAY, toS: TO, callerFaults: 'exclude' as const };

  it('a 34.7× burn over 5 minutes spends about 0.4% of a 30-day budget, not 3,470%', () => {
    const b = computeBudget(steady, settings);
    expect(b.burnRange).toBeCloseTo(34.7);
    expect(b.burn['5m']).toBeCloseTo(34.7);
    // 1% of 8,640,000 calls may fail over the period.
    expect(b.allowedInPeriod).toBeCloseTo(86_400);
    expect(b.usedByRange).toBeCloseTo(347 / 86_400);
    expect(b.usedByRange * 100).toBeCloseTo(0.4, 1);
    expect(b.usedInPeriod).toBeCloseTo(347 / 86_400);
    // 347 failures in the last hour of 12,000 calls: 2.89% against 1% allowed.
    expect(b.burn['1h']).toBeCloseTo(347 / 12_000 / 0.01);
    // 86,053 failures left at 347 per hour: 247.99 hours.
    expect(b.exhaustionS! / 3600).toBeCloseTo(86_053 / 347, 1);
  });

  it('leaves caller faults (validation) out of the budget unless they are included', () => {
    const out = computeBudget(steady, settings);
    expect(out.failures).toBe(347);
    expect(out.callerFaults).toBe(100);
    expect(out.failuresByClass).toEqual({ rate_limit: 347 });
    const inc = computeBudget(steady, { ...settings, callerFaults: 'include' });
    expect(inc.failures).toBe(447);
    expect(inc.callerFaults).toBe(0);
    expect(inc.failuresByClass).toEqual({ rate_limit: 347, validation: 100 });
    expect(inc.burnRange).toBeCloseTo(44.7);
  });

  it('extrapolates the period from the time a new service has been seen', () => {
    // One hour old, 12,000 calls: 8,640,000 expected over 30 days; 864 of them failed.
    const young = {
      service: 'search',
      total: counts(12_000, { '5m': 1_000, '1h': 12_000, '6h': 12_000, '3d': 12_000 }, 12_000),
      firstSeenS: TO - 3600,
      failuresByClass: { transient: counts(864, { '1h': 864, '6h': 864, '3d': 864 }, 864) },
    };
    const b = computeBudget(young, settings);
    expect(b.allowedInPeriod).toBeCloseTo(86_400);
    expect(b.usedInPeriod).toBeCloseTo(0.01);
    expect(b.burn['1h']).toBeCloseTo(7.2);
    expect(b.burn['5m']).toBe(0);
  });

  it('holds still while the clock moves and nothing new is stored', () => {
    // One hour of traffic, stored until TO - 600; read at TO, then an hour and a day later.
    const quiet = {
      service: 'checkout',
      total: counts(12_000, { '1h': 12_000, '6h': 12_000, '3d': 12_000 }, 12_000),
      firstSeenS: TO - 4200,
      lastSeenS: TO - 600,
      failuresByClass: { transient: counts(654, { '1h': 654, '6h': 654, '3d': 654 }, 654) },
    };
    const at = (nowS: number) => computeBudget(quiet, { ...settings, toS: nowS, nowS });
    const first = at(TO);
    // The hour of data stands for 1/720 of the 30 days: 8,640,000 calls expected, 1% allowed.
    expect(first.allowedInPeriod).toBeCloseTo(86_400);
    expect(first.periodCoverage).toBeCloseTo(1 / 720);
    for (const later of [at(TO + 3600), at(TO + DAY)]) {
      expect(later.allowedInPeriod).toBe(first.allowedInPeriod);
      expect(later.usedInPeriod).toBe(first.usedInPeriod);
      expect(later.periodCoverage).toBe(first.periodCoverage);
    }
  });

  it('says the budget is exhausted once the period has spent it, and nothing when nothing burns', () => {
    const spent = {
      service: 'ledger',
      total: counts(100, { '1h': 100 }, 100),
      firstSeenS: TO - 3600,
      failuresByClass: { permanent: counts(10, { '1h': 10 }, 10_000) },
    };
    expect(computeBudget(spent, settings).exhaustionS).toBe(0);
    const idle = { service: 'idle', total: counts(0, {}, 0), firstSeenS: TO - 60, failuresByClass: {} };
    const b = computeBudget(idle, settings);
    expect(b.exhaustionS).toBeNull();
    expect(b.burnRange).toBeNull();
  });
});

describe('edgeBudgetShare', () => {
  // 8,640,000 calls over 30 days at 99%: 86,400 failures allowed.
  const service = {
    service: 'checkout',
    total: counts(1_000, { '5m': 1_000 }, 8_640_000),
    firstSeenS: TO - 30 * DAY,
    failuresByClass: {},
  };
  const settings = { slo: 99, periodS: 30 * DAY, toS: TO, callerFaults: 'exclude' as const };

  it("is the edge's first-hand failures over its service's allowed failures", () => {
    expect(edgeBudgetShare(service, { transient: 864 }, settings)).toBeCloseTo(0.01);
    expect(edgeBudgetShare(service, {}, settings)).toBe(0);
  });

  it('counts caller faults only when they are included, as the service budget does', () => {
    expect(edgeBudgetShare(service, { transient: 432, validation: 432 }, settings)).toBeCloseTo(0.005);
    expect(
      edgeBudgetShare(service, { transient: 432, validation: 432 }, { ...settings, callerFaults: 'include' }),
    ).toBeCloseTo(0.01);
  });
});

describe('pickHeadline', () => {
  const matrix = [
    { class: 'validation', source: 'db', failures: 400, retryableFailures: 0 },
    { class: 'rate_limit', source: 'sdk', failures: 300, retryableFailures: 300 },
    { class: 'transient', source: 'http', failures: 100, retryableFailures: 100 },
  ];

  it('names the counted class and source with the most first-hand failures', () => {
    expect(pickHeadline(matrix, 'exclude')).toEqual({
      class: 'rate_limit',
      source: 'sdk',
      failures: 300,
      totalFailures: 400,
      callerFaults: 400,
      failureShare: 0.75,
    });
    expect(pickHeadline(matrix, 'include')).toMatchObject({ class: 'validation', totalFailures: 800 });
    expect(pickHeadline([], 'exclude')).toBeNull();
  });
});

describe('compounding', () => {
  it('reproduces 95% per step over 20 steps ≈ 35.8%', () => {
    expect(predictedEndToEnd(stepReliability(100, 5), 20)).toBeCloseTo(0.358, 3);
  });

  it('predicts a mix of workflows as the mean of p^n, not p^(mean n)', () => {
    // Half the workflows take 1 step, half 39: 0.5 × 0.9 + 0.5 × 0.9^39 = 0.4581, not 0.9^20 = 0.1216.
    expect(
      predictedMixture(0.9, [
        { steps: 1, workflows: 5 },
        { steps: 39, workflows: 5 },
      ]),
    ).toBeCloseTo(0.5 * 0.9 + 0.5 * 0.9 ** 39, 6);
  });
});
