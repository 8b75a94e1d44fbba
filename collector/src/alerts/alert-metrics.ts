import { Registry } from 'prom-client';
import { liveCounter, liveGauge } from '../metrics/live-metrics.js';
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

type FiringLabels = Pick<AlertNotice, 'alertname' | 'service' | 'severity'>;

/** What the alerting role's metrics read at each scrape: live state, never a copy. */
export interface AlertMetricsSource {
  series(): OutboundSeries;
  countedUntilS(): number | null;
  firing(): Iterable<AlertNotice>;
  stats: Readonly<EvaluationStats>;
}

/**
 * The alerting role's part of /metrics: the outbound call and failure counters the generated
 * Prometheus rules read, the firing alerts, and the evaluator's health. Without the process
 * metrics, so it can join a collector's /metrics; alone, the alerts server adds them.
 */
export function alertMetrics(source: AlertMetricsSource): Registry {
  const registry = new Registry();
  const byKey = <T>(m: Map<string, T>) => [...m].sort(([a], [b]) => a.localeCompare(b));
  const { stats } = source;

  liveCounter(registry, {
    name: CALLS_METRIC,
    help: 'Logical outbound calls (CLIENT and PRODUCER spans, each attempt) per service, as the error budget counts them; minutes are added once settled.',
    labelNames: ['service'],
    read: () => byKey(source.series().calls).map(([service, n]) => [{ service }, n] as const),
  });
  liveCounter(registry, {
    name: FAILURES_METRIC,
    help: 'Failures of those calls per service, class and source; first_hand="true" are the ones the error budget counts, "false" echo a deeper failure.',
    labelNames: ['service', 'class', 'source', 'first_hand'],
    read: () =>
      byKey(source.series().failures).map(([key, n]) => {
        const [service = '', cls = '', src = '', firstHand = ''] = key.split('\0');
        return [{ service, class: cls, source: src, first_hand: firstHand }, n] as const;
      }),
  });
  liveGauge(registry, {
    name: 'faultline_outbound_counted_until_seconds',
    help: 'Epoch seconds up to which the outbound counters include spans (they lag by the settle time).',
    read: () => source.countedUntilS() ?? 0,
  });
  liveGauge(registry, {
    name: 'faultline_alerts_firing',
    help: 'Alerts firing now, per rule, service and severity.',
    labelNames: ['alertname', 'service', 'severity'],
    read: () => {
      const byLabels = new Map<string, [FiringLabels, number]>();
      for (const { alertname, service, severity } of source.firing()) {
        const key = JSON.stringify([alertname, service, severity]);
        const held = byLabels.get(key);
        if (held) held[1]++;
        else byLabels.set(key, [{ alertname, service, severity }, 1]);
      }
      return [...byLabels.values()].sort(
        ([a], [b]) =>
          a.alertname.localeCompare(b.alertname) ||
          a.service.localeCompare(b.service) ||
          a.severity.localeCompare(b.severity),
      );
    },
  });
  liveCounter(registry, {
    name: 'faultline_alert_evaluations_total',
    help: 'Alert evaluations by outcome.',
    labelNames: ['outcome'],
    read: () => [
      [{ outcome: 'ok' }, stats.ok],
      [{ outcome: 'failed' }, stats.failed],
    ],
  });
  liveGauge(registry, {
    name: 'faultline_alert_evaluation_duration_seconds',
    help: 'How long the last alert evaluation took.',
    read: () => stats.lastDurationS ?? 0,
  });
  liveGauge(registry, {
    name: 'faultline_alert_last_success_seconds',
    help: 'Epoch seconds of the last successful alert evaluation (alert on its age to catch a stalled evaluator).',
    read: () => stats.lastSuccessS ?? 0,
  });
  return registry;
}
