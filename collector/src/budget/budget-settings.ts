/**
 * The SLO settings a budget is computed under, each with its URL parameter and env default.
 * Pure and shared: the dashboard's budget panel and the collector's burn-rate alerts both read
 * them from here (`@faultline/collector/budget`), so a page and an alert count the same calls.
 */

export const DEFAULT_SLO = 99.5;
export const DEFAULT_PERIOD_DAYS = 30;

/** Which calls a budget panel counts: the entry service's requests, or logical outbound calls. */
export const SLIS = ['requests', 'calls'] as const;
export type Sli = (typeof SLIS)[number];
/**
 * The SLI the burn-rate alerts measure unless FAULTLINE_ALERT_SLI says otherwise: logical outbound
 * calls. The Overview shows the same SLI by default (budgetDefaults().sli), so the budget on the
 * page and the pages the alerts send burn on one denominator.
 */
export const DEFAULT_SLI: Sli = 'calls';

/**
 * Classes that are the caller's fault: shown apart, and counted against the budget only when the
 * user says so (a service is not unavailable because its clients sent bad input).
 */
export const CALLER_FAULT_CLASSES: readonly string[] = ['validation'];
export const CALLER_FAULT_MODES = ['exclude', 'include'] as const;
export type CallerFaultMode = (typeof CALLER_FAULT_MODES)[number];

/**
 * Burn-rate windows of the SRE workbook's multi-window alerts, shown beside the selected range and
 * evaluated by the collector's alerts (src/alerts/burn-rules.ts pairs them long × short). Their one
 * home: the budget queries (sql/queries/dashboard/budget_*.sql) take them as a parameter
 * (burnWindowParams) and count one column per window, in this order (budgetCounts reads them).
 */
export const BURN_WINDOWS = [
  { key: '5m', seconds: 5 * 60 },
  { key: '30m', seconds: 30 * 60 },
  { key: '1h', seconds: 60 * 60 },
  { key: '6h', seconds: 6 * 60 * 60 },
  { key: '3d', seconds: 3 * 24 * 60 * 60 },
] as const;
export type BurnWindow = (typeof BURN_WINDOWS)[number]['key'];

/**
 * The burn windows as the budget queries take them: `{windows_s:Array(UInt32)}`, each window's
 * length in seconds, in BURN_WINDOWS order. Every caller of budget_calls, budget_failures and
 * budget_requests passes these.
 */
export function burnWindowParams(): { windows_s: number[] } {
  return { windows_s: BURN_WINDOWS.map((w) => w.seconds) };
}

export function parseSlo(raw: string, name: string): number {
  const slo = Number(raw);
  if (!Number.isFinite(slo) || slo <= 0 || slo >= 100) {
    throw new RangeError(
      `${name}=${raw} is not an SLO target: give a percentage between 0 and 100, e.g. 99.5.`,
    );
  }
  return slo;
}

export function parsePeriodDays(raw: string, name: string): number {
  const days = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || days < 1 || days > 365) {
    throw new RangeError(
      `${name}=${raw} is not an SLO period: give a whole number of days from 1 to 365, e.g. 30.`,
    );
  }
  return days;
}

export function parseCallerFaults(raw: string, name: string): CallerFaultMode {
  if ((CALLER_FAULT_MODES as readonly string[]).includes(raw)) return raw as CallerFaultMode;
  throw new RangeError(
    `${name}=${raw} is not a caller-fault mode: use "exclude" (validation failures shown apart, not counted against the budget) or "include".`,
  );
}

export function parseSli(raw: string, name: string): Sli {
  if ((SLIS as readonly string[]).includes(raw)) return raw as Sli;
  throw new RangeError(
    `${name}=${raw} is not an SLI: use "requests" (the entry service's requests) or "calls" (logical outbound calls).`,
  );
}

/** Env defaults, validated: a bad value names the variable and the fix. */
export function budgetDefaults(env: NodeJS.ProcessEnv = process.env): {
  slo: number;
  periodDays: number;
  callerFaults: CallerFaultMode;
  sli: Sli;
} {
  const slo = env.FAULTLINE_SLO_TARGET;
  const period = env.FAULTLINE_SLO_PERIOD_DAYS;
  const callerFaults = env.FAULTLINE_BUDGET_CALLER_FAULTS;
  const sli = env.FAULTLINE_ALERT_SLI?.trim();
  return {
    slo: slo === undefined || slo === '' ? DEFAULT_SLO : parseSlo(slo, 'FAULTLINE_SLO_TARGET'),
    periodDays:
      period === undefined || period === ''
        ? DEFAULT_PERIOD_DAYS
        : parsePeriodDays(period, 'FAULTLINE_SLO_PERIOD_DAYS'),
    callerFaults:
      callerFaults === undefined || callerFaults === ''
        ? 'exclude'
        : parseCallerFaults(callerFaults, 'FAULTLINE_BUDGET_CALLER_FAULTS'),
    sli: sli ? parseSli(sli, 'FAULTLINE_ALERT_SLI') : DEFAULT_SLI,
  };
}
