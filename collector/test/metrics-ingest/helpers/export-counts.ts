import { countMetrics } from '@faultline/instrumentation';
import type { Meter } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  MeterProvider,
  MetricReader,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';

/**
 * A reader collected by hand: the SDK's own aggregation (delta or cumulative, as the exporter
 * selects) without a timer, so a test exports exactly when it says and sees the result.
 */
class ManualReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface CountsSession {
  meter: Meter;
  /** What the SDK would export now (for hand-made requests of the same bytes). */
  collect(): Promise<ResourceMetrics>;
  /** Collects what was recorded since the last call and exports it through the exporter. */
  exportNow(): Promise<{ ok: boolean; error?: Error }>;
  shutdown(): Promise<void>;
}

/**
 * A MeterProvider for `service` (resource service.name) whose reader feeds `exporter`, a real OTLP
 * metric exporter: counts recorded on `meter` travel as the preload's would.
 */
export function countsSession(exporter: PushMetricExporter, service: string): CountsSession {
  const reader = new ManualReader({
    aggregationTemporalitySelector: (type) => exporter.selectAggregationTemporality!(type),
  });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    readers: [reader],
  });
  return {
    meter: provider.getMeter(countMetrics.COUNT_METER_NAME),
    async collect() {
      return (await reader.collect()).resourceMetrics;
    },
    async exportNow() {
      const { resourceMetrics } = await reader.collect();
      return new Promise((resolve) =>
        exporter.export(resourceMetrics, (r) =>
          resolve({ ok: r.code === ExportResultCode.SUCCESS, error: r.error }),
        ),
      );
    },
    async shutdown() {
      await provider.shutdown();
      await exporter.shutdown();
    },
  };
}

const { COUNT_CALLS, COUNT_FAILURES } = countMetrics;
const A = countMetrics;

/**
 * The scenario every transport sends, as the preload counts it: a checkout service that took 3
 * entry requests (one failed transient, an echo of a deeper failure) and made 7 calls to Stripe,
 * 2 of them rate limited (first-hand). Split over two exports, so the rows must add up.
 */
export async function sendScenario(session: CountsSession): Promise<void> {
  const calls = session.meter.createCounter(COUNT_CALLS);
  const failures = session.meter.createCounter(COUNT_FAILURES);
  const stripe = {
    [A.COUNT_ATTR_SPAN_KIND]: 'Client',
    [A.COUNT_ATTR_SOURCE]: 'http',
    [A.COUNT_ATTR_DEPENDENCY]: 'api.stripe.com',
    [A.COUNT_ATTR_ENTRY]: false,
  };
  const entry = {
    [A.COUNT_ATTR_SPAN_KIND]: 'Server',
    [A.COUNT_ATTR_SOURCE]: 'http',
    [A.COUNT_ATTR_DEPENDENCY]: '',
    [A.COUNT_ATTR_ENTRY]: true,
  };
  calls.add(5, stripe);
  calls.add(2, entry);
  failures.add(1, {
    ...stripe,
    [A.COUNT_ATTR_CLASS]: 'rate_limit',
    [A.COUNT_ATTR_CODE]: '429',
    [A.COUNT_ATTR_PROPAGATED]: false,
  });
  let result = await session.exportNow();
  if (!result.ok) throw new Error(`first export failed: ${result.error}`);
  calls.add(2, stripe);
  calls.add(1, entry);
  failures.add(1, {
    ...stripe,
    [A.COUNT_ATTR_CLASS]: 'rate_limit',
    [A.COUNT_ATTR_CODE]: '429',
    [A.COUNT_ATTR_PROPAGATED]: false,
  });
  failures.add(1, {
    ...entry,
    [A.COUNT_ATTR_CLASS]: 'transient',
    [A.COUNT_ATTR_CODE]: '503',
    [A.COUNT_ATTR_PROPAGATED]: true,
  });
  result = await session.exportNow();
  if (!result.ok) throw new Error(`second export failed: ${result.error}`);
}

/** What sendScenario must leave in call_counts_1m, summed per key. */
export function scenarioRows(service: string) {
  const key = { ServiceName: service, source: 'http' };
  return [
    {
      ...key,
      SpanKind: 'Client',
      dependency: 'api.stripe.com',
      class: '',
      code: '',
      entry: false,
      propagated: false,
      calls: 7,
      failures: 0,
    },
    {
      ...key,
      SpanKind: 'Client',
      dependency: 'api.stripe.com',
      class: 'rate_limit',
      code: '429',
      entry: false,
      propagated: false,
      calls: 0,
      failures: 2,
    },
    {
      ...key,
      SpanKind: 'Server',
      dependency: '',
      class: '',
      code: '',
      entry: true,
      propagated: false,
      calls: 3,
      failures: 0,
    },
    {
      ...key,
      SpanKind: 'Server',
      dependency: '',
      class: 'transient',
      code: '503',
      entry: true,
      propagated: true,
      calls: 0,
      failures: 1,
    },
  ];
}
