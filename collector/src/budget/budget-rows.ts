import { BURN_WINDOWS, type BurnWindow } from './budget-settings.js';
import type { BudgetCounts, BudgetInput } from './error-budget.js';

type Row = Record<string, unknown>;

const num = (v: unknown): number => (typeof v === 'number' ? v : Number(v ?? 0) || 0);
const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/**
 * One row's range, per-window and period counts. The windows are the `<prefix>_windows` array of
 * the budget queries, one count per window of burnWindowParams, in BURN_WINDOWS order.
 */
export function budgetCounts(r: Row, prefix: string, rangeKey: string, periodKey: string): BudgetCounts {
  const counts = r[`${prefix}_windows`];
  const windows = {} as Record<BurnWindow, number>;
  BURN_WINDOWS.forEach((w, i) => {
    windows[w.key] = num(Array.isArray(counts) ? counts[i] : undefined);
  });
  return { range: num(r[rangeKey]), windows, period: num(r[periodKey]) };
}

/**
 * The calls SLI's inputs from the budget_calls, budget_failures and budget_exact_calls rows:
 * logical outbound calls per service (the stored spans' count, and the preload's exact count for
 * the minutes it counted, which budget_calls leaves out), first-hand failures by class, echoes
 * beside. One reading for the dashboard's budget panel and the collector's burn-rate alerts, so
 * both count exactly the same calls.
 */
export function callBudgetInputs(calls: Row[], failures: Row[], exactCalls: Row[] = []): BudgetInput[] {
  const byService = new Map<string, BudgetInput>();
  for (const r of [...calls, ...exactCalls]) {
    const service = str(r.service);
    const counts = budgetCounts(r, 'calls', 'range_calls', 'period_calls');
    const input = byService.get(service);
    if (!input) {
      byService.set(service, {
        service,
        total: counts,
        firstSeenS: num(r.first_seen),
        ...lastSeen(r),
        failuresByClass: {},
        propagated: 0,
      });
      continue;
    }
    input.total = addCounts(input.total, counts);
    widenSeen(input, r);
  }
  const allInRange = new Map<string, number>();
  for (const r of failures) {
    const input = byService.get(str(r.service));
    if (!input) continue;
    const cls = str(r.class);
    if (cls === '') {
      allInRange.set(input.service, num(r.range_all_failures));
      continue;
    }
    input.failuresByClass[cls] = budgetCounts(r, 'failures', 'range_failures', 'period_failures');
  }
  for (const input of byService.values()) {
    const firstHand = Object.values(input.failuresByClass).reduce((s, c) => s + c.range, 0);
    input.propagated = Math.max(0, (allInRange.get(input.service) ?? 0) - firstHand);
  }
  return [...byService.values()];
}

/** The end of the last stored minute, where the query gives it (older callers' rows may not). */
function lastSeen(r: Row): { lastSeenS?: number } {
  return r.last_seen === undefined ? {} : { lastSeenS: num(r.last_seen) };
}

/** A service's observed time widened to a row's first and last minute: one span of time, two sources. */
function widenSeen(input: BudgetInput, r: Row): void {
  input.firstSeenS = Math.min(input.firstSeenS, num(r.first_seen));
  if (r.last_seen !== undefined) input.lastSeenS = Math.max(input.lastSeenS ?? 0, num(r.last_seen));
}

function addCounts(a: BudgetCounts, b: BudgetCounts): BudgetCounts {
  const windows = { ...a.windows };
  for (const w of BURN_WINDOWS) windows[w.key] += b.windows[w.key];
  return { range: a.range + b.range, windows, period: a.period + b.period };
}

function zeroCounts(): BudgetCounts {
  const windows = {} as Record<BurnWindow, number>;
  for (const w of BURN_WINDOWS) windows[w.key] = 0;
  return { range: 0, windows, period: 0 };
}

/**
 * budget_requests files a failed request of a minute the preload counted exactly under
 * `exact:<class>`: a failure of that class, already among the exact count's requests.
 */
const EXACT_PREFIX = 'exact:';

/**
 * The requests SLI's inputs from the budget_requests rows: the entry service's requests (each
 * workflow's root server span), the failed ones by the class of their first-hand cause; and, from
 * the budget_exact_requests rows, the requests the preload counted in process for the minutes it
 * counted (their stored workflows are left out of the first rows, their failures kept as
 * failures). One reading for the dashboard's budget panel and the collector's burn-rate alerts.
 */
export function requestBudgetInputs(rows: Row[], exactRows: Row[] = []): BudgetInput[] {
  const byService = new Map<string, BudgetInput>();
  const inputOf = (service: string): BudgetInput => {
    const input = byService.get(service) ?? {
      service,
      total: zeroCounts(),
      firstSeenS: Number.POSITIVE_INFINITY,
      failuresByClass: {},
    };
    byService.set(service, input);
    return input;
  };
  for (const r of rows) {
    const input = inputOf(str(r.service));
    const c = budgetCounts(r, 'requests', 'range_requests', 'period_requests');
    const raw = str(r.class);
    const exact = raw.startsWith(EXACT_PREFIX);
    const cls = exact ? raw.slice(EXACT_PREFIX.length) : raw;
    if (!exact) input.total = addCounts(input.total, c);
    widenSeen(input, r);
    if (cls !== '') input.failuresByClass[cls] = addCounts(input.failuresByClass[cls] ?? zeroCounts(), c);
  }
  for (const r of exactRows) {
    const input = inputOf(str(r.service));
    input.total = addCounts(input.total, budgetCounts(r, 'requests', 'range_requests', 'period_requests'));
    widenSeen(input, r);
  }
  return [...byService.values()];
}
