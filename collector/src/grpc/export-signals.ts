import type { TracesHandlerDeps } from '../ingest/ingest-deps.js';
import { type ExportOutcome, ingestExport, refuseUnread } from '../ingest/ingest-export.js';
import { ingestLogsExport, type LogsOutcome } from '../logs-ingest/ingest-logs-export.js';
import type { LogsHandlerDeps } from '../logs-ingest/logs-handler-deps.js';
import { ingestMetricsExport, type MetricsOutcome } from '../metrics-ingest/ingest-metrics-export.js';
import type { MetricsHandlerDeps } from '../metrics-ingest/metrics-handler-deps.js';
import type { GrpcExport } from './handle-export.js';

/**
 * TraceService/Export: the OTLP/HTTP rules over gRPC (the same refusals before reading, decode
 * budget, writer and counters, through `ingestExport`).
 */
export function traceExport(deps: TracesHandlerDeps): GrpcExport<Extract<ExportOutcome, { ok: true }>> {
  return {
    what: 'export',
    config: deps.config,
    stats: deps.stats,
    ingest: async (read) => refuseUnread(deps) ?? ingestExport(deps, 'protobuf', read),
    rejectedOf: (outcome) => outcome.rejectedSpans,
  };
}

/** MetricsService/Export: /v1/metrics' rules over gRPC (decode budget, count writer, counters). */
export function metricsExport(deps: MetricsHandlerDeps): GrpcExport<Extract<MetricsOutcome, { ok: true }>> {
  return {
    what: 'metrics export',
    config: deps.receiver.config,
    stats: deps.stats,
    ingest: (read) => ingestMetricsExport(deps, 'protobuf', read),
    rejectedOf: (outcome) => outcome.rejectedPoints,
  };
}

/** LogsService/Export: /v1/logs' rules over gRPC (decode budget, log writer, counters). */
export function logsExport(deps: LogsHandlerDeps): GrpcExport<Extract<LogsOutcome, { ok: true }>> {
  return {
    what: 'logs export',
    config: deps.receiver.config,
    stats: deps.stats,
    ingest: (read) => ingestLogsExport(deps, 'protobuf', read),
    rejectedOf: (outcome) => outcome.rejectedRecords,
  };
}
