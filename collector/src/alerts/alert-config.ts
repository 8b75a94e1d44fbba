import { budgetDefaults, type CallerFaultMode, type Sli } from '../budget/index.js';
import type { AgentActionRule } from './agent-rules.js';
import { DEFAULT_ALERT_RULES, readAlertRulesFile } from './alert-rules-file.js';
import { type BurnRule, DEFAULT_MIN_EVENTS, MAX_MIN_EVENTS } from './burn-rules.js';
import type { ClassRule } from './class-rules.js';
import { DEFAULT_STALE_AFTER_S } from './staleness.js';

export const DEFAULT_ALERT_INTERVAL_S = 60;

export interface AlertConfig {
  intervalS: number;
  /** Alertmanager's base URL (the v2 API is under it), or null. */
  alertmanagerUrl: string | null;
  webhookUrl: string | null;
  /** The SLO target (percent) of services without an override. */
  slo: number;
  /** Per-service SLO targets from FAULTLINE_ALERT_RULES. */
  sloByService: Record<string, number>;
  /** The burn-rate rules: the SRE workbook's unless FAULTLINE_ALERT_RULES lists its own. */
  burnRules: readonly BurnRule[];
  /** Class-aware rules (class × source rate, new failure code) from FAULTLINE_ALERT_RULES. */
  classRules: readonly ClassRule[];
  /** Agents' wrong next actions (agent-rules.ts): DEFAULT_AGENT_RULE unless the rules file lists its own. */
  agentRules: readonly AgentActionRule[];
  /** FAULTLINE_ALERT_WEBHOOK_FORMAT: the webhook's payload shape. */
  webhookFormat: WebhookFormat;
  /** FAULTLINE_PAGERDUTY_ROUTING_KEY: the Events v2 integration key (format pagerduty only). */
  pagerdutyRoutingKey: string | null;
  callerFaults: CallerFaultMode;
  /**
   * FAULTLINE_ALERT_SLI: what the burn is measured on — `calls` (default: the service's logical
   * outbound calls and their first-hand failures) or `requests` (the entry service's requests,
   * failed by their first-hand cause), the two SLIs of the dashboard's budget panel.
   */
  sli: Sli;
  /** Where the dashboard is reached, for the links in alerts. */
  dashboardUrl: string;
  /**
   * FAULTLINE_ALERT_MIN_EVENTS: events (calls or requests, per the SLI) each window of a burn-rate
   * rule must hold before the rule may fire; a rule of the rules file may set its own (min_events).
   */
  minEvents: number;
  /** FAULTLINE_ALERT_STALE_AFTER_S: seconds without data after which a service's alerts are stale. */
  staleAfterS: number;
}

function httpUrl(name: string, raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RangeError(`${name}=${raw} is not a URL: give an http(s) URL, e.g. http://127.0.0.1:9093.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new RangeError(`${name}=${raw} is not an http(s) URL: give one such as http://127.0.0.1:9093.`);
  return url.toString().replace(/\/$/, '');
}

export function parseAlertInterval(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_ALERT_INTERVAL_S;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < 1 || n > 86_400)
    throw new RangeError(
      `FAULTLINE_ALERT_INTERVAL_S=${raw} is not an evaluation interval: give a whole number of seconds from 1 to 86400 (default 60).`,
    );
  return n;
}

export function parseMinEvents(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_MIN_EVENTS;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < 1 || n > MAX_MIN_EVENTS)
    throw new RangeError(
      `FAULTLINE_ALERT_MIN_EVENTS=${raw} is not an event count: give a whole number of calls (or requests) from 1 to ${MAX_MIN_EVENTS} that a burn window must hold before it is judged (default ${DEFAULT_MIN_EVENTS}; 1 judges any window with traffic).`,
    );
  return n;
}

/** Bounds of FAULTLINE_ALERT_STALE_AFTER_S: last_seen is known to the minute, and 3 d is the longest window. */
export const STALE_AFTER_RANGE_S = { min: 120, max: 259_200 } as const;

export function parseStaleAfter(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return DEFAULT_STALE_AFTER_S;
  const n = Number(raw);
  const { min, max } = STALE_AFTER_RANGE_S;
  if (!/^\d+$/.test(raw.trim()) || n < min || n > max)
    throw new RangeError(
      `FAULTLINE_ALERT_STALE_AFTER_S=${raw} is not a staleness delay: give a whole number of seconds from ${min} (data is counted per minute) to ${max} (the longest burn window, 3 d) after which a service that sent nothing has its alerts marked stale (default ${DEFAULT_STALE_AFTER_S}).`,
    );
  return n;
}

export const WEBHOOK_FORMATS = ['generic', 'slack', 'pagerduty'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

export function parseWebhookFormat(raw: string | undefined): WebhookFormat {
  if (raw === undefined || raw.trim() === '') return 'generic';
  const v = raw.trim().toLowerCase();
  if (!(WEBHOOK_FORMATS as readonly string[]).includes(v))
    throw new RangeError(
      `FAULTLINE_ALERT_WEBHOOK_FORMAT=${raw} is not a payload format: give generic (default), slack (a Slack incoming webhook) or pagerduty (PagerDuty Events v2).`,
    );
  return v as WebhookFormat;
}

/**
 * FAULTLINE_ALERT_RULES: a YAML or JSON file (alert-rules-file.ts) with per-service SLOs and the
 * rules; kept for callers that want only the SLO overrides.
 */
export function parseAlertRulesFile(path: string): Record<string, number> {
  return readAlertRulesFile(path).sloByService;
}

/** The alert settings from the environment, validated: a bad value names the variable and the fix. */
export function resolveAlertConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<AlertConfig> = {},
): AlertConfig {
  const budget = budgetDefaults(env);
  const rulesFile = env.FAULTLINE_ALERT_RULES;
  const rules = rulesFile && rulesFile.trim() !== '' ? readAlertRulesFile(rulesFile) : DEFAULT_ALERT_RULES;
  const webhookFormat = parseWebhookFormat(env.FAULTLINE_ALERT_WEBHOOK_FORMAT);
  const routingKey = env.FAULTLINE_PAGERDUTY_ROUTING_KEY?.trim() || null;
  if (webhookFormat === 'pagerduty' && !routingKey)
    throw new RangeError(
      'FAULTLINE_ALERT_WEBHOOK_FORMAT=pagerduty needs FAULTLINE_PAGERDUTY_ROUTING_KEY: give the integration key of a PagerDuty Events API v2 integration (and FAULTLINE_ALERT_WEBHOOK_URL=https://events.pagerduty.com/v2/enqueue).',
    );
  const port = env.FAULTLINE_DASHBOARD_PORT ?? env.PORT ?? '3000';
  return {
    intervalS: parseAlertInterval(env.FAULTLINE_ALERT_INTERVAL_S),
    alertmanagerUrl: httpUrl('FAULTLINE_ALERTMANAGER_URL', env.FAULTLINE_ALERTMANAGER_URL),
    webhookUrl: httpUrl('FAULTLINE_ALERT_WEBHOOK_URL', env.FAULTLINE_ALERT_WEBHOOK_URL),
    slo: budget.slo,
    sloByService: rules.sloByService,
    burnRules: rules.burnRules,
    classRules: rules.classRules,
    agentRules: rules.agentRules,
    webhookFormat,
    pagerdutyRoutingKey: routingKey,
    callerFaults: budget.callerFaults,
    sli: budget.sli,
    dashboardUrl:
      httpUrl('FAULTLINE_DASHBOARD_PUBLIC_URL', env.FAULTLINE_DASHBOARD_PUBLIC_URL) ??
      `http://127.0.0.1:${port}`,
    minEvents: parseMinEvents(env.FAULTLINE_ALERT_MIN_EVENTS),
    staleAfterS: parseStaleAfter(env.FAULTLINE_ALERT_STALE_AFTER_S),
    ...overrides,
  };
}
