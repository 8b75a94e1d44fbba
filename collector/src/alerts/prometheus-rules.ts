import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { BURN_WINDOWS, CALLER_FAULT_CLASSES } from '../budget/index.js';
import { type AlertConfig, resolveAlertConfig } from './alert-config.js';
import type { BurnRule } from './burn-rules.js';
import { ruleMinEvents } from './judge-windows.js';

/**
 * The counters the Prometheus rules read (the /metrics contract): bounded labels only — service,
 * class (five envelope classes, '' unclassified), source (http, db, sdk, rpc …), first_hand.
 *  - faultline_outbound_calls_total{service}: logical outbound calls (CLIENT and PRODUCER spans,
 *    each attempt; no pool checkout, successful connect or transport request), as calls_1m counts.
 *  - faultline_outbound_failures_total{service,class,source,first_hand}: their failures;
 *    first_hand="true" are the ones the budget counts (first_hand_failures).
 */
export const CALLS_METRIC = 'faultline_outbound_calls_total';
export const FAILURES_METRIC = 'faultline_outbound_failures_total';

type PromRule = Record<string, unknown>;

const windows = BURN_WINDOWS.map((w) => w.key);
const windowSeconds = (key: string) => BURN_WINDOWS.find((w) => w.key === key)?.seconds ?? 0;
/** Seconds as a PromQL duration: 600 → 10m. */
const duration = (s: number) => (s % 60 === 0 ? `${s / 60}m` : `${s}s`);
const re = (values: readonly string[]) =>
  values.map((v) => v.replace(/[\\.^$|?*+()[\]{}]/g, '\\$&')).join('|');
/** A float as PromQL writes it, without binary noise (1 - 99.9/100 = 0.0010000000000000009). */
const num = (n: number) => String(Number(n.toPrecision(12)));

/**
 * Prometheus recording and alerting rules equivalent to the evaluator's: the budget's burn per
 * window and service (per-service SLOs from FAULTLINE_ALERT_RULES), the burn-rate alerts with the
 * dominant class as the `class` label, each window holding at least the rule's minimum of calls
 * (FAULTLINE_ALERT_MIN_EVENTS or its min_events) and the service having made a call within
 * FAULTLINE_ALERT_STALE_AFTER_S (the evaluator counts any span; these counters know outbound calls
 * only), and the class_rate rules. new_code has no equivalent (a
 * failure code is not a bounded label). Format: https://prometheus.io/docs/prometheus/latest/configuration/recording_rules/
 * and …/alerting_rules/.
 */
export function prometheusRules(config: AlertConfig): { groups: { name: string; rules: PromRule[] }[] } {
  const counted = config.callerFaults === 'include' ? '' : `,class!~"${re(CALLER_FAULT_CLASSES)}"`;
  const overrides = Object.entries(config.sloByService).sort(([a], [b]) => a.localeCompare(b));
  const recording: PromRule[] = [];
  for (const w of windows) {
    recording.push(
      { record: `faultline:outbound_calls:rate${w}`, expr: `sum by (service) (rate(${CALLS_METRIC}[${w}]))` },
      {
        record: `faultline:outbound_failures:rate${w}`,
        expr: `sum by (service) (rate(${FAILURES_METRIC}{first_hand="true"${counted}}[${w}]))`,
      },
      {
        record: `faultline:outbound_failures_by_class:rate${w}`,
        expr: `sum by (service, class) (rate(${FAILURES_METRIC}{first_hand="true"${counted}}[${w}]))`,
      },
      {
        record: `faultline:error_ratio:rate${w}`,
        expr: `faultline:outbound_failures:rate${w} / faultline:outbound_calls:rate${w}`,
      },
    );
    // burn = error ratio / (1 - SLO): each overridden service by its own SLO, `or` all the others.
    const budget = (slo: number) => num(1 - slo / 100);
    recording.push({
      record: `faultline:error_budget_burn:rate${w}`,
      expr: [
        ...overrides.map(
          ([service, slo]) => `faultline:error_ratio:rate${w}{service="${service}"} / ${budget(slo)}`,
        ),
        overrides.length
          ? `faultline:error_ratio:rate${w}{service!~"${re(overrides.map(([s]) => s))}"} / ${budget(config.slo)}`
          : `faultline:error_ratio:rate${w} / ${budget(config.slo)}`,
      ].join('\nor\n'),
    });
  }

  // One alert per alertname × severity, as the evaluator sends (the first holding rule wins: `or`
  // keeps the left side), labelled with the class that failed most over the first rule's long
  // window (topk keeps one class per service).
  const bySeverity = new Map<string, BurnRule[]>();
  for (const r of config.burnRules) {
    const k = `${r.alertname}|${r.severity}`;
    bySeverity.set(k, [...(bySeverity.get(k) ?? []), r]);
  }
  const alerting: PromRule[] = [...bySeverity.values()].map((rules) => {
    const first = rules[0] as BurnRule;
    const enough = (w: string, min: number) =>
      `faultline:outbound_calls:rate${w} * ${windowSeconds(w)} >= ${min}`;
    const holds = rules.map((r) => {
      const min = ruleMinEvents(r, config.minEvents);
      return `(faultline:error_budget_burn:rate${r.long} >= ${r.factor} and faultline:error_budget_burn:rate${r.short} >= ${r.factor} and ${enough(r.long, min)} and ${enough(r.short, min)})`;
    });
    const what = rules.map((r) => `${r.factor}× over ${r.long} and ${r.short}`).join(', or ');
    return {
      alert: first.alertname,
      expr: [
        `((${holds.join('\n or ')})`,
        ` unless on (service) (sum by (service) (increase(${CALLS_METRIC}[${duration(config.staleAfterS)}])) == 0))`,
        '+ on (service) group_right ()',
        `(0 * topk by (service) (1, faultline:outbound_failures_by_class:rate${first.long}))`,
      ].join('\n'),
      labels: { severity: first.severity },
      annotations: {
        summary: `{{ $labels.service }}: {{ printf "%.1f" $value }}× error-budget burn (${what}), mostly {{ $labels.class }}`,
        dashboard: `${config.dashboardUrl}/?service={{ $labels.service }}`,
      },
    };
  });
  for (const c of config.classRules) {
    if (c.kind !== 'class_rate') continue;
    const service = c.service ? `,service="${c.service}"` : '';
    alerting.push({
      alert: c.alertname,
      expr: `sum by (service, class, source) (rate(${FAILURES_METRIC}{class="${c.class}",source="${c.source}"${service}}[${c.windowMinutes}m])) * 60 > ${c.perMinute}`,
      labels: { severity: c.severity },
      annotations: {
        summary: `{{ $labels.service }}: {{ printf "%.1f" $value }} ${c.class} failures/min from ${c.source} over ${c.windowMinutes}m (above ${c.perMinute}/min)`,
        dashboard: `${config.dashboardUrl}/?service={{ $labels.service }}`,
      },
    });
  }
  return {
    groups: [
      { name: 'faultline-error-budget', rules: recording },
      { name: 'faultline-alerts', rules: alerting },
    ],
  };
}

/** The rules as a Prometheus rule file (YAML). */
export function renderPrometheusRules(config: AlertConfig): string {
  return `# Generated by \`npm run rules\` from Faultline's alert settings (FAULTLINE_SLO_TARGET,\n# FAULTLINE_ALERT_RULES). Reads ${CALLS_METRIC} and ${FAILURES_METRIC} from /metrics.\n${stringify(prometheusRules(config), { lineWidth: 0 })}`;
}

/** `npm run rules [-- --out <file>]`: the rule file on stdout or in a file. Returns the exit code. */
export function runPrometheusRulesCli(args: readonly string[], env: NodeJS.ProcessEnv = process.env): number {
  let out: string | null = null;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out' || args[i] === '-o') out = args[++i] ?? null;
    else if (args[i]?.startsWith('--out=')) out = args[i]!.slice('--out='.length);
    else {
      console.error(`rules: unknown argument ${args[i]}: use --out <file>, or nothing for stdout.`);
      return 2;
    }
  }
  let text: string;
  try {
    text = renderPrometheusRules(resolveAlertConfig(env));
  } catch (err) {
    console.error(`rules: ${(err as Error).message}`);
    return 1;
  }
  if (out) writeFileSync(out, text);
  else process.stdout.write(text);
  return 0;
}
