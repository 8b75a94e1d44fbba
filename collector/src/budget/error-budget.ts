/**
 * Error budget arithmetic, kept pure so it is tested without a database.
 *
 * The SLO allows (1 − slo) of an SLO period's calls to fail. Over the period the service is expected
 * to make its observed rate × the period's length of calls, so a 5-minute window burning 34.7× spends
 * 34.7 × 5 min / 30 d ≈ 0.4% of a 30-day budget — not 3,473%.
 */
import {
  BURN_WINDOWS,
  type BurnWindow,
  CALLER_FAULT_CLASSES,
  type CallerFaultMode,
} from './budget-settings.js';

/** Label for Error spans that reached the rollup without an envelope. */
export const UNCLASSIFIED = 'unclassified';

/** What one service did, in the selected range, the burn windows and the SLO period. */
export interface BudgetCounts {
  range: number;
  windows: Record<BurnWindow, number>;
  period: number;
}

export interface BudgetInput {
  service: string;
  /** Calls (or requests) made. */
  total: BudgetCounts;
  /** Unix seconds of the first call seen in the period (bounds the observed time). */
  firstSeenS: number;
  /**
   * Unix seconds just after the last call stored in the period (the end of its minute). The
   * observed time ends here, not at the clock: with nothing new stored, no figure moves.
   */
  lastSeenS?: number;
  /** First-hand failures by class. */
  failuresByClass: Record<string, BudgetCounts>;
  /** Echoes of deeper failures in the range, shown beside, never counted (calls SLI only). */
  propagated?: number;
}

export interface BudgetSettings {
  slo: number;
  periodS: number;
  /** End of the range (unix seconds): the windows and the period end here. */
  toS: number;
  /** Now (unix seconds): a range may end in the future (the current minute), time observed may not. */
  nowS?: number;
  callerFaults: CallerFaultMode;
}

export interface ServiceBudget {
  service: string;
  total: number;
  /** Failures counted against the budget in the range. */
  failures: number;
  /** Caller-fault failures in the range (validation), counted only when included. */
  callerFaults: number;
  propagated: number;
  /** Failures counted in the range, by class (caller-fault classes only when included). */
  failuresByClass: Record<string, number>;
  /** Failures the SLO allows over the whole period at the observed call rate. */
  allowedInPeriod: number;
  /** The share of the SLO period the stored traffic spans (0 to 1): what the allowance extrapolates from. */
  periodCoverage: number;
  /** Share of the period's budget the range's failures spent. */
  usedByRange: number;
  usedByRangeByClass: Record<string, number>;
  /** Share of the period's budget spent so far (the period ends at the range's end). */
  usedInPeriod: number;
  /** Seconds until the budget is gone at the last hour's failure rate; null when nothing burns. */
  exhaustionS: number | null;
  /** Error rate over the allowed rate; null when nothing was called. */
  burnRange: number | null;
  burn: Record<BurnWindow, number | null>;
}

/** Whether failures of this class are counted against the budget under this caller-fault mode. */
export function countsAgainstBudget(cls: string, mode: CallerFaultMode): boolean {
  return mode === 'include' || !CALLER_FAULT_CLASSES.includes(cls);
}

/** Error rate over the allowed rate (1 - SLO): 1 spends the budget exactly by the period's end. */
export function burnRate(failures: number, total: number, allowedRate: number): number | null {
  return total > 0 ? failures / total / allowedRate : null;
}

export function computeBudget(input: BudgetInput, s: BudgetSettings): ServiceBudget {
  const allowedRate = 1 - s.slo / 100;
  const sum = (pick: (c: BudgetCounts) => number, countedOnly = true) =>
    Object.entries(input.failuresByClass).reduce(
      (acc, [cls, c]) => acc + (!countedOnly || countsAgainstBudget(cls, s.callerFaults) ? pick(c) : 0),
      0,
    );
  // The time the stored traffic spans, from its first to its last call in the period: the clock
  // moving on with nothing new stored changes no allowance (issue 30: figures that hold still).
  const endS = Math.min(s.toS, s.nowS ?? s.toS, input.lastSeenS ?? Number.POSITIVE_INFINITY);
  const observedS = Math.max(60, endS - Math.max(input.firstSeenS, s.toS - s.periodS));
  const expectedInPeriod = input.total.period * (s.periodS / Math.min(observedS, s.periodS));
  const allowedInPeriod = expectedInPeriod * allowedRate;
  const failures = sum((c) => c.range);
  const periodFailures = sum((c) => c.period);
  const failuresByClass: Record<string, number> = {};
  const usedByRangeByClass: Record<string, number> = {};
  for (const [cls, c] of Object.entries(input.failuresByClass)) {
    if (!countsAgainstBudget(cls, s.callerFaults) || c.range === 0) continue;
    failuresByClass[cls] = c.range;
    usedByRangeByClass[cls] = allowedInPeriod > 0 ? c.range / allowedInPeriod : 0;
  }
  const lastHourS = Math.min(3600, observedS);
  const ratePerS = sum((c) => c.windows['1h']) / lastHourS;
  const left = allowedInPeriod - periodFailures;
  const burn = {} as Record<BurnWindow, number | null>;
  for (const w of BURN_WINDOWS)
    burn[w.key] = burnRate(
      sum((c) => c.windows[w.key]),
      input.total.windows[w.key],
      allowedRate,
    );
  return {
    service: input.service,
    total: input.total.range,
    failures,
    callerFaults: sum((c) => c.range, false) - failures,
    propagated: input.propagated ?? 0,
    failuresByClass,
    allowedInPeriod,
    periodCoverage: Math.min(1, observedS / s.periodS),
    usedByRange: allowedInPeriod > 0 ? failures / allowedInPeriod : 0,
    usedByRangeByClass,
    usedInPeriod: allowedInPeriod > 0 ? periodFailures / allowedInPeriod : 0,
    exhaustionS: left <= 0 ? (periodFailures > 0 ? 0 : null) : ratePerS > 0 ? left / ratePerS : null,
    burnRange: burnRate(failures, input.total.range, allowedRate),
    burn,
  };
}

export function computeBudgets(inputs: BudgetInput[], s: BudgetSettings): ServiceBudget[] {
  return inputs
    .map((i) => computeBudget(i, s))
    .sort((a, b) => b.usedByRange - a.usedByRange || a.service.localeCompare(b.service));
}

export interface MatrixInputRow {
  class: string;
  source: string;
  failures: number;
  retryableFailures: number;
}

export interface Headline {
  class: string;
  source: string;
  failures: number;
  /** First-hand failures counted against the budget (caller faults only when included). */
  totalFailures: number;
  /** Caller-fault failures shown apart (0 when included). */
  callerFaults: number;
  /** Share of the counted first-hand failures. */
  failureShare: number;
}

/** The class × source pair with the most first-hand failures counted against the budget. */
export function pickHeadline(matrix: MatrixInputRow[], callerFaults: CallerFaultMode): Headline | null {
  const countedRows = matrix.filter((r) => countsAgainstBudget(r.class, callerFaults) && r.failures > 0);
  const top = [...countedRows].sort(
    (a, b) => b.failures - a.failures || a.class.localeCompare(b.class) || a.source.localeCompare(b.source),
  )[0];
  const totalFailures = countedRows.reduce((s, r) => s + r.failures, 0);
  const excluded = matrix.reduce((s, r) => s + r.failures, 0) - totalFailures;
  if (!top) return null;
  return {
    class: top.class,
    source: top.source,
    failures: top.failures,
    totalFailures,
    callerFaults: excluded,
    failureShare: totalFailures > 0 ? top.failures / totalFailures : 0,
  };
}
