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
