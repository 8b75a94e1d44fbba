import type { CallerFaultMode } from '../budget/index.js';
import { BURN_WINDOWS, type BudgetInput, countsAgainstBudget, type ServiceBudget } from '../budget/index.js';
import { BURN_RULES, type BurnRule, DEFAULT_MIN_EVENTS, type Severity } from './burn-rules.js';
import { judgeRule } from './judge-windows.js';

/** A rule that holds for a service right now. */
export interface BurnFinding {
  key: string;
  alertname: string;
  service: string;
  severity: Severity;
  rule: BurnRule;
  burnLong: number;
  burnShort: number;
  /** Burn rate per window (null: no calls in it). */
  burn: ServiceBudget['burn'];
  /** Counted first-hand failures per class over the rule's long window, and their shares. */
  classes: { class: string; failures: number; share: number }[];
}

export function alertKey(alertname: string, service: string, severity: string): string {
  return `${alertname}|${service}|${severity}`;
}

function windowSeconds(key: string): number {
  return BURN_WINDOWS.find((w) => w.key === key)?.seconds ?? 0;
}

/**
 * Which rules hold for one service. Per severity the first holding rule wins (both page rules page
 * the same alert: one page per service, not two). A rule holds only over windows with at least
 * `minEvents` events (its own min_events where it sets one). Pure: the budget is computed by
 * computeBudget, the same arithmetic the dashboard's budget panel shows.
 */
export function judgeBurn(
  input: BudgetInput,
  budget: ServiceBudget,
  callerFaults: CallerFaultMode,
  rules: readonly BurnRule[] = BURN_RULES,
  minEvents: number = DEFAULT_MIN_EVENTS,
): BurnFinding[] {
  const found = new Map<Severity, BurnFinding>();
  for (const rule of rules) {
    if (found.has(rule.severity)) continue;
    if (judgeRule(input, budget, rule, minEvents) !== 'burning') continue;
    const counted = Object.entries(input.failuresByClass)
      .filter(([cls]) => countsAgainstBudget(cls, callerFaults))
      .map(([cls, c]) => ({ class: cls, failures: c.windows[rule.long] }))
      .filter((c) => c.failures > 0);
    const total = counted.reduce((s, c) => s + c.failures, 0);
    const classes = counted
      .map((c) => ({ ...c, share: total > 0 ? c.failures / total : 0 }))
      .sort((a, b) => b.failures - a.failures || a.class.localeCompare(b.class));
    found.set(rule.severity, {
      key: alertKey(rule.alertname, input.service, rule.severity),
      alertname: rule.alertname,
      service: input.service,
      severity: rule.severity,
      rule,
      burnLong: budget.burn[rule.long] as number,
      burnShort: budget.burn[rule.short] as number,
      burn: budget.burn,
      classes,
    });
  }
  return [...found.values()];
}

export { windowSeconds };
