import { ingestLogsExport, type LogsOutcome } from '../logs-ingest/ingest-logs-export.js';
import type { LogsHandlerDeps } from '../logs-ingest/logs-handler-deps.js';
import { ingestMetricsExport, type MetricsOutcome } from '../metrics-ingest/ingest-metrics-export.js';
import type { MetricsHandlerDeps } from '../metrics-ingest/metrics-handler-deps.js';
import type { TracesHandlerDeps } from './ingest-deps.js';
import { type ExportOutcome, ingestExport, refuseUnread } from './ingest-export.js';
import type { SignalExport } from './signal-export.js';

/**
 * TraceService/Export over gRPC: the OTLP/HTTP rules (the same refusals before reading, decode
 * budget, writer and counters, through `ingestExport`; POST /v1/traces has its own handler).
 */
export function traceExport(deps: TracesHandlerDeps): SignalExport<Extract<ExportOutcome, { ok: true }>> {
  return {
    what: 'export',
    config: deps.config,
    stats: deps.stats,
    ingest: async (encoding, read) => refuseUnread(deps) ?? ingestExport(deps, encoding, read),
    rejectedOf: (outcome) => outcome.rejectedSpans,
    rejectedField: 'rejectedSpans',
  };
}

/** POST /v1/metrics and MetricsService/Export: the decode budget, the count writer, its counters. */
export function metricsExport(deps: MetricsHandlerDeps): SignalExport<Extract<MetricsOutcome, { ok: true }>> {
  return {
    what: 'metrics export',
    config: deps.receiver.config,
    stats: deps.stats,
    ingest: (encoding, read) => ingestMetricsExport(deps, encoding, read),
    rejectedOf: (outcome) => outcome.rejectedPoints,
    rejectedField: 'rejectedDataPoints',
  };
}

/** POST /v1/logs and LogsService/Export: the decode budget, the log writer, its counters. */
export function logsExport(deps: LogsHandlerDeps): SignalExport<Extract<LogsOutcome, { ok: true }>> {
  return {
    what: 'logs export',
    config: deps.receiver.config,
    stats: deps.stats,
    ingest: (encoding, read) => ingestLogsExport(deps, encoding, read),
    rejectedOf: (outcome) => outcome.rejectedRecords,
    rejectedField: 'rejectedLogRecords',
  };
}
