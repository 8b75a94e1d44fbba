import type { AlertNotice } from './alert-types.js';
import type { OutboundSeries } from './outbound-counters.js';
import { CALLS_METRIC, FAILURES_METRIC } from './prometheus-rules.js';

/** How the evaluator has fared, for /metrics. */
export interface EvaluationStats {
  ok: number;
  failed: number;
  /** Seconds the last evaluation took (null before the first). */
  lastDurationS: number | null;
  /** Epoch seconds of the last successful evaluation. */
  lastSuccessS: number | null;
}

/** A Prometheus label value: backslash, double quote and newline escaped (exposition format 0.0.4). */
const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/**
 * The alerting role's part of /metrics (Prometheus text format 0.0.4): the outbound call and
 * failure counters the generated Prometheus rules read, the firing alerts, and the evaluator's health.
 */
export function renderAlertMetrics(
  series: OutboundSeries,
  countedUntilS: number | null,
  firing: readonly AlertNotice[],
  stats: EvaluationStats,
): string {
  const out: string[] = [];
  const head = (name: string, type: string, help: string) =>
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);

  head(
    CALLS_METRIC,
    'counter',
    'Logical outbound calls (CLIENT and PRODUCER spans, each attempt) per service, as the error budget counts them; minutes are added once settled.',
  );
  for (const [service, n] of [...series.calls].sort(([a], [b]) => a.localeCompare(b)))
    out.push(`${CALLS_METRIC}{service="${esc(service)}"} ${n}`);
  head(
    FAILURES_METRIC,
    'counter',
    'Failures of those calls per service, class and source; first_hand="true" are the ones the error budget counts, "false" echo a deeper failure.',
  );
  for (const [key, n] of [...series.failures].sort(([a], [b]) => a.localeCompare(b))) {
    const [service = '', cls = '', source = '', firstHand = ''] = key.split('\0');
    out.push(
      `${FAILURES_METRIC}{service="${esc(service)}",class="${esc(cls)}",source="${esc(source)}",first_hand="${firstHand}"} ${n}`,
    );
  }
  head(
    'faultline_outbound_counted_until_seconds',
    'gauge',
    'Epoch seconds up to which the outbound counters include spans (they lag by the settle time).',
  );
  out.push(`faultline_outbound_counted_until_seconds ${countedUntilS ?? 0}`);

  head('faultline_alerts_firing', 'gauge', 'Alerts firing now, per rule, service and severity.');
  const byLabels = new Map<string, number>();
  for (const n of firing) {
    const k = `alertname="${esc(n.alertname)}",service="${esc(n.service)}",severity="${n.severity}"`;
    byLabels.set(k, (byLabels.get(k) ?? 0) + 1);
  }
  for (const [k, n] of [...byLabels].sort(([a], [b]) => a.localeCompare(b)))
    out.push(`faultline_alerts_firing{${k}} ${n}`);
  head('faultline_alert_evaluations_total', 'counter', 'Alert evaluations by outcome.');
  out.push(
    `faultline_alert_evaluations_total{outcome="ok"} ${stats.ok}`,
    `faultline_alert_evaluations_total{outcome="failed"} ${stats.failed}`,
  );
  head('faultline_alert_evaluation_duration_seconds', 'gauge', 'How long the last alert evaluation took.');
  out.push(`faultline_alert_evaluation_duration_seconds ${stats.lastDurationS ?? 0}`);
  head(
    'faultline_alert_last_success_seconds',
    'gauge',
    'Epoch seconds of the last successful alert evaluation (alert on its age to catch a stalled evaluator).',
  );
  out.push(`faultline_alert_last_success_seconds ${stats.lastSuccessS ?? 0}`);
  return `${out.join('\n')}\n`;
}
