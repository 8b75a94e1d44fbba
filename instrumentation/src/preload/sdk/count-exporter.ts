import { diag } from '@opentelemetry/api';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import {
  AggregationTemporalityPreference,
  OTLPMetricExporter as JsonExporter,
} from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import {
  AggregationTemporality,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import type { CountSettings } from './count-config.js';
import { unrefExportRetries } from './unref-retries.js';

/**
 * The OTLP/HTTP metrics exporter for the call counts, protobuf or JSON, delta sums, its retry
 * waits unref'd (as the spans' exporter's: a down collector never holds a finished process). It
 * reads its own OTEL_EXPORTER_OTLP_METRICS_* / OTEL_EXPORTER_OTLP_* variables; settings pass only
 * what count-config.ts resolved. The exit flush uses a second one with a short timeout.
 */
export function createCountExporter(settings: CountSettings, timeoutMillis?: number): PushMetricExporter {
  const options = {
    ...(settings.url ? { url: settings.url } : {}),
    ...(settings.headers ? { headers: settings.headers } : {}),
    ...(timeoutMillis ? { timeoutMillis } : {}),
    temporalityPreference: AggregationTemporalityPreference.DELTA,
  };
  const exporter = settings.protocol === 'http/json' ? new JsonExporter(options) : new ProtoExporter(options);
  unrefExportRetries(exporter);
  return exporter;
}

/**
 * What the metric reader exports through. It hands each export to the OTLP exporter and reports
 * it done at once: the SDK's PeriodicExportingMetricReader arms a referenced timer around every
 * export it waits for, which would keep a finished process alive while an export to a down
 * collector is retried. The request itself still holds the process while it is on the wire, and
 * forceFlush (the exit flush) waits for every export in flight. A failed export loses its deltas,
 * as any delta export does; it is reported through `diag`. While `exiting`, exports take the
 * quick exporter (one attempt, then the process may end).
 */
export class CountExportRoute implements PushMetricExporter {
  exiting = false;

  constructor(
    private readonly exporter: PushMetricExporter,
    private readonly exitExporter: PushMetricExporter,
  ) {}

  export(metrics: ResourceMetrics, done: (result: ExportResult) => void): void {
    (this.exiting ? this.exitExporter : this.exporter).export(metrics, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) {
        diag.warn('faultline: exporting call counts failed', result.error);
      }
    });
    done({ code: ExportResultCode.SUCCESS });
  }

  /** The contract's sums are deltas: each export carries the calls since the one before. */
  selectAggregationTemporality(): AggregationTemporality {
    return AggregationTemporality.DELTA;
  }

  async forceFlush(): Promise<void> {
    await Promise.all([this.exporter.forceFlush(), this.exitExporter.forceFlush()]);
  }

  async shutdown(): Promise<void> {
    await Promise.all([this.exporter.shutdown(), this.exitExporter.shutdown()]);
  }
}
