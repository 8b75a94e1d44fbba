-- name: exporter_traces_insert
-- description: The OpenTelemetry Collector contrib ClickHouse exporter's traces INSERT column list
--   (exporter/clickhouseexporter/internal/sqltemplates/traces_insert.sql), positional like its
--   `?` placeholders. Tests insert through it to prove that exporter can feed this schema.
INSERT INTO otel_traces (
    Timestamp,
    TraceId,
    SpanId,
    ParentSpanId,
    TraceState,
    SpanName,
    SpanKind,
    ServiceName,
    ResourceAttributes,
    ScopeName,
    ScopeVersion,
    SpanAttributes,
    Duration,
    StatusCode,
    StatusMessage,
    Events.Timestamp,
    Events.Name,
    Events.Attributes,
    Links.TraceId,
    Links.SpanId,
    Links.TraceState,
    Links.Attributes
) FORMAT JSONCompactEachRow
