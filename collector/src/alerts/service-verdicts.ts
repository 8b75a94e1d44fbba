import type { Store } from '@faultline/sql';
import { computeBudget } from '../budget/index.js';
import type { AlertConfig } from './alert-config.js';
import { LONGEST_WINDOW_S, readBudgetInputs, readLastSeen } from './alert-inputs.js';
import { type BurnFinding, judgeBurn } from './judge-burn.js';
import {
  judgeRule,
  judgeWindows,
  type RuleVerdict,
  ruleMinEvents,
  type WindowVerdict,
} from './judge-windows.js';
import { isStale, staleReason } from './staleness.js';

/** What the evaluator made of one service: the Alerts page's per-service reading. */
export interface ServiceVerdict {
  service: string;
  /** Epoch seconds just after the last minute holding any of its data in the longest window (null: none). */
  lastSeenS: number | null;
  /** No data for FAULTLINE_ALERT_STALE_AFTER_S: its burn-rate rules are not judged, its alerts are stale. */
  stale: boolean;
  /** "no data since …" when stale, else null. */
  staleReason: string | null;
  /** The minimum of events a window needs to be judged (FAULTLINE_ALERT_MIN_EVENTS). */
  minEvents: number;
  /** Every burn window; empty for a service seen only outside the SLI (no calls or requests of its own). */
  windows: WindowVerdict[];
  rules: RuleVerdict[];
}

export interface ServiceJudgement {
  services: ServiceVerdict[];
  /** The burn-rate rules that hold (never for a stale service). */
  findings: BurnFinding[];
}

/**
 * Judges every service at nowMs as the alert evaluator does: the budget per burn window, each
 * window judged or not by its event count, each rule burning or not, and staleness. The evaluator
 * alerts on the findings; the Alerts page shows the verdicts ("not enough traffic to judge",
 * "no data since …") without running an evaluator of its own.
 */
export async function judgeServices(
  store: Store,
  config: AlertConfig,
  nowMs: number,
): Promise<ServiceJudgement> {
  const toS = Math.floor(nowMs / 1000);
  const [inputs, lastSeen] = await Promise.all([
    readBudgetInputs(store, config.sli, toS),
    readLastSeen(store, toS),
  ]);
  const services: ServiceVerdict[] = [];
  const findings: BurnFinding[] = [];
  const judged = new Set<string>();
  for (const input of inputs) {
    judged.add(input.service);
    const budget = computeBudget(input, {
      slo: config.sloByService[input.service] ?? config.slo,
      periodS: LONGEST_WINDOW_S,
      toS,
      nowS: toS,
      callerFaults: config.callerFaults,
    });
    const seen = lastSeen.get(input.service) ?? input.lastSeenS ?? null;
    const stale = isStale(seen, toS, config.staleAfterS);
    if (!stale)
      findings.push(...judgeBurn(input, budget, config.callerFaults, config.burnRules, config.minEvents));
    services.push({
      service: input.service,
      lastSeenS: seen,
      stale,
      staleReason: stale && seen !== null ? staleReason(seen) : null,
      minEvents: config.minEvents,
      windows: judgeWindows(input, budget, config.callerFaults, config.minEvents),
      rules: config.burnRules.map((rule) => ({
        alertname: rule.alertname,
        severity: rule.severity,
        long: rule.long,
        short: rule.short,
        factor: rule.factor,
        minEvents: ruleMinEvents(rule, config.minEvents),
        verdict: stale ? 'stale' : judgeRule(input, budget, rule, config.minEvents),
      })),
    });
  }
  for (const [service, seen] of lastSeen) {
    if (judged.has(service)) continue;
    const stale = isStale(seen, toS, config.staleAfterS);
    services.push({
      service,
      lastSeenS: seen,
      stale,
      staleReason: stale ? staleReason(seen) : null,
      minEvents: config.minEvents,
      windows: [],
      rules: [],
    });
  }
  services.sort((a, b) => a.service.localeCompare(b.service));
  return { services, findings };
}
