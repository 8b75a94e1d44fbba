import { spawnSync } from 'node:child_process';
import { register } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { AlertEvaluator } from '../../src/alerts/alert-evaluator.js';
import { alertMetrics } from '../../src/alerts/alert-metrics.js';
import type { AlertNotice } from '../../src/alerts/alert-types.js';
import { startAlertsServer } from '../../src/alerts/alerts-server.js';
import { checkBearer, matchesDigest, secretDigest } from '../../src/ingest/check-bearer.js';
import { ReceiverStats } from '../../src/ingest/receiver-stats.js';
import { collectorMetrics } from '../../src/metrics/collector-metrics.js';
import { withProcessMetrics } from '../../src/metrics/live-metrics.js';
import type { WriterStats } from '../../src/types.js';
import { LatencyRecorder } from '../../src/writer/latency-histogram.js';

// /metrics is prom-client registries read live at scrape time, one per collector: several run in
// one process (as here), each with its own values and the Node process metrics, none on the
// global default registry. The /metrics contents themselves are asserted by the receiver, gRPC,
// durability and alerts tests against real scrapes.

function writer(ackAfter: 'wal' | 'insert'): { stats: () => WriterStats; calls: () => number } {
  const latency = new LatencyRecorder();
  for (const s of [0.003, 0.02, 0.7, 30]) latency.observe(s);
  let calls = 0;
  const stats = (): WriterStats => {
    calls++;
    return {
      accepted: 10,
      rejected: 0,
      spooled: 10,
      replayed: 9,
      inserted: 9,
      queueDepth: 1,
      queueBytes: 120,
      spoolDepth: 0,
      spoolBytes: 0,
      insertErrors: 0,
      pendingInsert: 1,
      ackAfter,
      quarantined: 0,
      splitBatches: 0,
      lastQuarantine: null,
      walError: null,
      oldestPendingAt: null,
      lastInsertError: null,
      spoolDir: '/nowhere',
      insertLatency: latency.snapshot(),
    };
  };
  return { stats, calls: () => calls };
}

describe('metrics registries', () => {
  it('one per collector: live values, process metrics in each, the global registry untouched', async () => {
    const receivers = [new ReceiverStats(), new ReceiverStats()];
    const writers = [writer('wal'), writer('insert')];
    const [a, b] = [0, 1].map((i) => withProcessMetrics(collectorMetrics(receivers[i]!, writers[i]!.stats)));
    receivers[0]!.countResponse(200);
    receivers[1]!.countResponse(503);
    receivers[1]!.countResponse(503);

    const [textA, textB] = await Promise.all([a!.metrics(), b!.metrics()]);
    expect(textA).toMatch(/^faultline_otlp_responses_total\{code="200"\} 1$/m);
    expect(textA).not.toContain('code="503"');
    expect(textB).toMatch(/^faultline_otlp_responses_total\{code="503"\} 2$/m);
    expect(textA).toContain('faultline_writer_ack_mode{mode="wal"} 1');
    expect(textB).toContain('faultline_writer_ack_mode{mode="insert"} 1');
    // One writer snapshot per scrape, however many metrics read it.
    expect([writers[0]!.calls(), writers[1]!.calls()]).toEqual([1, 1]);
    expect(textA).toContain(
      [
        'faultline_insert_duration_seconds_bucket{le="0.005"} 1',
        'faultline_insert_duration_seconds_bucket{le="0.01"} 1',
        'faultline_insert_duration_seconds_bucket{le="0.025"} 2',
      ].join('\n'),
    );
    expect(textA).toMatch(
      /^faultline_insert_duration_seconds_bucket\{le="10"\} 3\nfaultline_insert_duration_seconds_bucket\{le="\+Inf"\} 4$/m,
    );
    for (const text of [textA, textB]) {
      expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
      expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m);
      const families = [...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]);
      expect(families.length).toBe(new Set(families).size);
    }
    expect((await register.metrics()).trim()).toBe('');

    receivers[0]!.spansInvalid = 7;
    expect(await a!.metrics()).toMatch(/^faultline_spans_rejected_total\{reason="invalid"\} 7$/m);
  });

  it('alert metrics escape hostile label values and add up firing alerts per label set', async () => {
    const stats = { ok: 1, failed: 0, lastDurationS: 0.5, lastSuccessS: 1_800_000_000 };
    const notice = (service: string) =>
      ({ alertname: 'ErrorBudgetBurn', service, severity: 'page' }) as AlertNotice;
    const registry = alertMetrics({
      series: () => ({ calls: new Map([['evil"svc\\\nx', 3]]), failures: new Map() }),
      countedUntilS: () => null,
      firing: () => [notice('b'), notice('a'), notice('b')],
      stats,
    });
    const text = await registry.metrics();
    expect(text).toContain('faultline_outbound_calls_total{service="evil\\"svc\\\\\\nx"} 3');
    expect(text).toContain(
      [
        'faultline_alerts_firing{alertname="ErrorBudgetBurn",service="a",severity="page"} 1',
        'faultline_alerts_firing{alertname="ErrorBudgetBurn",service="b",severity="page"} 2',
      ].join('\n'),
    );
    expect(text).not.toContain('process_cpu');
    const lint = spawnSync('promtool', ['check', 'metrics'], {
      input: await withProcessMetrics(registry).metrics(),
      encoding: 'utf8',
    });
    expect(lint.error, 'promtool missing: the pretest step installs Debian prometheus').toBeUndefined();
    expect(lint.stderr + lint.stdout).not.toMatch(/error while linting|text format parsing error/i);
  });
});

describe('the alerts role alone', () => {
  it('serves its registry with the process metrics on its own /metrics', async () => {
    const stats = { ok: 2, failed: 1, lastDurationS: 0.25, lastSuccessS: Math.floor(Date.now() / 1000) };
    const registry = alertMetrics({
      series: () => ({ calls: new Map([['checkout', 4]]), failures: new Map() }),
      countedUntilS: () => 1_800_000_000,
      firing: () => [],
      stats,
    });
    const evaluator = { registry, health: () => ({ ...stats, firing: 0 }) } as unknown as AlertEvaluator;
    const server = await startAlertsServer({ evaluator, intervalS: 60, port: 0 });
    try {
      const res = await fetch(`${server.url}/metrics`);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      const text = await res.text();
      expect(text).toContain('faultline_outbound_calls_total{service="checkout"} 4');
      expect(text).toContain('faultline_alert_evaluations_total{outcome="failed"} 1');
      expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
      stats.ok++;
      expect(await (await fetch(`${server.url}/metrics`)).text()).toContain(
        'faultline_alert_evaluations_total{outcome="ok"} 3',
      );
    } finally {
      await server.close();
    }
  });
});

describe('the one constant-time secret comparison', () => {
  it('matches a presented secret against a kept digest, and a Bearer header against a token', () => {
    const kept = secretDigest('s3cret-token-0123456789');
    expect(kept.length).toBe(32);
    expect(matchesDigest('s3cret-token-0123456789', kept)).toBe(true);
    expect(matchesDigest('s3cret-token-012345678', kept)).toBe(false);
    expect(matchesDigest('', kept)).toBe(false);
    expect(checkBearer('Bearer s3cret-token-0123456789', 's3cret-token-0123456789')).toBe(true);
    expect(checkBearer('bearer \ts3cret-token-0123456789 ', 's3cret-token-0123456789')).toBe(true);
    expect(checkBearer('Bearer wrong', 's3cret-token-0123456789')).toBe(false);
    expect(checkBearer('Basic s3cret-token-0123456789', 's3cret-token-0123456789')).toBe(false);
    expect(checkBearer(undefined, 's3cret-token-0123456789')).toBe(false);
  });
});
