import {
  BURN_WINDOWS,
  type BudgetInput,
  type BurnWindow,
  type CallerFaultMode,
  countsAgainstBudget,
  type ServiceBudget,
} from '../budget/index.js';
import { type BurnRule, DEFAULT_MIN_EVENTS, type Severity } from './burn-rules.js';

/** One burn window of one service, as the evaluator judged it. */
export interface WindowVerdict {
  window: BurnWindow;
  /** Events (calls or requests, per the SLI) in the window. */
  events: number;
  /** Failures counted against the budget in the window. */
  failures: number;
  /** Error ratio over the allowed ratio (null: no events). Shown only when the verdict is `judged`. */
  burn: number | null;
  /** `insufficient_traffic`: fewer than minEvents events, "not enough traffic to judge". */
  verdict: 'judged' | 'insufficient_traffic';
}

/** One burn-rate rule of one service. */
export interface RuleVerdict {
  alertname: string;
  severity: Severity;
  long: BurnWindow;
  short: BurnWindow;
  factor: number;
  minEvents: number;
  /** `burning`: both windows judged and at the factor or above; `stale`: the service stopped sending. */
  verdict: 'burning' | 'ok' | 'insufficient_traffic' | 'stale';
}

/** The minimum a rule's windows must hold: its own min_events, else the configured one. */
export function ruleMinEvents(rule: BurnRule, minEvents: number = DEFAULT_MIN_EVENTS): number {
  return rule.minEvents ?? minEvents;
}

/** Every burn window of a service, each judged or not against minEvents. */
export function judgeWindows(
  input: BudgetInput,
  budget: ServiceBudget,
  callerFaults: CallerFaultMode,
  minEvents: number = DEFAULT_MIN_EVENTS,
): WindowVerdict[] {
  return BURN_WINDOWS.map(({ key }) => {
    const events = input.total.windows[key];
    const failures = Object.entries(input.failuresByClass)
      .filter(([cls]) => countsAgainstBudget(cls, callerFaults))
      .reduce((s, [, c]) => s + c.windows[key], 0);
    return {
      window: key,
      events,
      failures,
      burn: budget.burn[key],
      verdict: events >= minEvents ? 'judged' : 'insufficient_traffic',
    };
  });
}

/**
 * Whether a rule holds: both its windows hold at least its minimum of events (a ratio of a
 * handful is noise, burn-rules.ts) and burn at its factor or above. A stale service is judged by
 * the caller, which never calls this for it.
 */
export function judgeRule(
  input: BudgetInput,
  budget: ServiceBudget,
  rule: BurnRule,
  minEvents: number = DEFAULT_MIN_EVENTS,
): RuleVerdict['verdict'] {
  const min = ruleMinEvents(rule, minEvents);
  if (input.total.windows[rule.long] < min || input.total.windows[rule.short] < min)
    return 'insufficient_traffic';
  const long = budget.burn[rule.long];
  const short = budget.burn[rule.short];
  return long !== null && short !== null && long >= rule.factor && short >= rule.factor ? 'burning' : 'ok';
}
