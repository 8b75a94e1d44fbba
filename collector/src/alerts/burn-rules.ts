import type { BurnWindow } from '../budget/index.js';

export type Severity = 'page' | 'ticket';

/** One multi-window rule: fires while the burn over both windows is at least `factor`. */
export interface BurnRule {
  alertname: string;
  severity: Severity;
  /** The window the burn is judged over, and whose breakdown the alert carries. */
  long: BurnWindow;
  /** The window that proves the burn is still going on (so the alert resolves soon after it stops). */
  short: BurnWindow;
  factor: number;
  /** Events each of its windows must hold before it may fire (FAULTLINE_ALERT_MIN_EVENTS unless set). */
  minEvents?: number;
}

export const BURN_ALERT_NAME = 'ErrorBudgetBurn';

/**
 * The Google SRE workbook's multi-window multi-burn-rate rules (chapter 5, "Alerting on SLOs"):
 * 14.4× over 1 h spends 2% of a 30-day budget, 6× over 6 h spends 5%, 1× over 3 d spends 10%.
 */
export const BURN_RULES: readonly BurnRule[] = [
  { alertname: BURN_ALERT_NAME, severity: 'page', long: '1h', short: '5m', factor: 14.4 },
  { alertname: BURN_ALERT_NAME, severity: 'page', long: '6h', short: '30m', factor: 6 },
  { alertname: BURN_ALERT_NAME, severity: 'ticket', long: '3d', short: '6h', factor: 1 },
];

/**
 * Events (calls or requests, per the SLI) a burn window must hold before a rule may judge it.
 *
 * The workbook's rules read an error ratio, and a ratio of a handful of events is mostly noise: its
 * "Low-traffic services" section shows one failed request of ten in an hour as a 10% error rate, a
 * burn that pages at once, and answers with synthetic traffic, combined services or longer windows.
 * Faultline keeps quiet instead until a window holds this many events. 250 is a round count past
 * 200, where at the default 99.5% SLO one failure stops being enough to open a ticket (1 of 200 is
 * 0.5%, a burn of 1, which the ticket rule fires on; 1 of 250 is 0.4%, 0.8); a page then needs
 * some 8 failures (6× over 6 h and 30 m) or 18 (14.4× over 1 h and 5 m). The cost: a service with
 * fewer than 50 events in 5 minutes cannot page on the fastest rule; the slower page and the
 * ticket still judge it over their longer windows.
 */
export const DEFAULT_MIN_EVENTS = 250;

/** The largest event minimum accepted, from the environment or the rules file. */
export const MAX_MIN_EVENTS = 1_000_000_000;
