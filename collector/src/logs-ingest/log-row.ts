/** The table log records land in (sql/schema/070_otel_logs.sql). */
export const OTEL_LOGS_TABLE = 'otel_logs';

/**
 * One row of otel_logs, exactly as the contrib ClickHouse exporter writes a log record
 * (exporter_logs.go): the record's time (its observed time when it has none), hex ids ('' when all
 * zero), the low byte of its flags (the W3C trace flags), severity, the resource's service.name, the
 * body as pcommon's AsString, schema URLs, the scope, and every attribute map stringified.
 * TimestampTime is the table's DEFAULT.
 */
export interface LogRow {
  /** DateTime64(9) text: `"<unix seconds>.<9 digits>"`. */
  Timestamp: string;
  TraceId: string;
  SpanId: string;
  TraceFlags: number;
  SeverityText: string;
  SeverityNumber: number;
  ServiceName: string;
  Body: string;
  ResourceSchemaUrl: string;
  ResourceAttributes: Record<string, string>;
  ScopeSchemaUrl: string;
  ScopeName: string;
  ScopeVersion: string;
  ScopeAttributes: Record<string, string>;
  LogAttributes: Record<string, string>;
  EventName: string;
}
