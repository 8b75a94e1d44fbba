import { readFileSync } from 'node:fs';
import { budgetDefaults, type CallerFaultMode, parseSlo } from '../budget/index.js';

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
  callerFaults: CallerFaultMode;
  /** Where the dashboard is reached, for the links in alerts. */
  dashboardUrl: string;
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

/**
 * FAULTLINE_ALERT_RULES: a JSON file `{ "services": { "<name>": { "slo": 99.9 } } }` overriding the
 * SLO per service; the burn-rate rules themselves are the workbook's (burn-rules.ts).
 */
export function parseAlertRulesFile(path: string): Record<string, number> {
  const name = 'FAULTLINE_ALERT_RULES';
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new RangeError(`${name}=${path} cannot be read as JSON: ${(err as Error).message}`);
  }
  const services = (doc as { services?: unknown })?.services;
  if (typeof doc !== 'object' || doc === null || (services !== undefined && typeof services !== 'object'))
    throw new RangeError(
      `${name}=${path}: give an object such as { "services": { "payments": { "slo": 99.9 } } }.`,
    );
  const out: Record<string, number> = {};
  for (const [service, rule] of Object.entries((services ?? {}) as Record<string, unknown>)) {
    const slo = (rule as { slo?: unknown })?.slo;
    out[service] = parseSlo(String(slo), `${name} services.${service}.slo`);
  }
  return out;
}

/** The alert settings from the environment, validated: a bad value names the variable and the fix. */
export function resolveAlertConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<AlertConfig> = {},
): AlertConfig {
  const budget = budgetDefaults(env);
  const rules = env.FAULTLINE_ALERT_RULES;
  const port = env.FAULTLINE_DASHBOARD_PORT ?? env.PORT ?? '3000';
  return {
    intervalS: parseAlertInterval(env.FAULTLINE_ALERT_INTERVAL_S),
    alertmanagerUrl: httpUrl('FAULTLINE_ALERTMANAGER_URL', env.FAULTLINE_ALERTMANAGER_URL),
    webhookUrl: httpUrl('FAULTLINE_ALERT_WEBHOOK_URL', env.FAULTLINE_ALERT_WEBHOOK_URL),
    slo: budget.slo,
    sloByService: rules ? parseAlertRulesFile(rules) : {},
    callerFaults: budget.callerFaults,
    dashboardUrl:
      httpUrl('FAULTLINE_DASHBOARD_PUBLIC_URL', env.FAULTLINE_DASHBOARD_PUBLIC_URL) ??
      `http://127.0.0.1:${port}`,
    ...overrides,
  };
}
