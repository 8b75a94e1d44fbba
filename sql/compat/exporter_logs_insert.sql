-- name: exporter_logs_insert
-- description: The OpenTelemetry Collector contrib ClickHouse exporter's logs INSERT column list
--   (exporter/clickhouseexporter/internal/sqltemplates/logs_insert.sql, with the EventName column
--   it adds when the table has one), positional like its `?` placeholders: the record's time (its
--   observed time when it has none), hex ids ('' when all zero), flags, severity, the resource's
--   service.name, the body as a string, schema URLs, scope and attribute maps.
INSERT INTO otel_logs (
    Timestamp,
    TraceId,
    SpanId,
    TraceFlags,
    SeverityText,
    SeverityNumber,
    ServiceName,
    Body,
    ResourceSchemaUrl,
    ResourceAttributes,
    ScopeSchemaUrl,
    ScopeName,
    ScopeVersion,
    ScopeAttributes,
    LogAttributes,
    EventName
) FORMAT JSONCompactEachRow
