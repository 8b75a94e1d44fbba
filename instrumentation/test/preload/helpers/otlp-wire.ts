import protobuf from 'protobufjs';

/**
 * The subset of the OTLP protobuf messages the in-process receiver decodes (collector/trace/v1,
 * collector/metrics/v1 and collector/logs/v1, over the common and resource types they share), and the flattening of
 * attribute values both encodings need.
 */
const root = protobuf.Root.fromJSON({
  nested: {
    AnyValue: {
      oneofs: { value: { oneof: ['s', 'b', 'i', 'd', 'a'] } },
      fields: {
        s: { type: 'string', id: 1 },
        b: { type: 'bool', id: 2 },
        i: { type: 'int64', id: 3 },
        d: { type: 'double', id: 4 },
        a: { type: 'ArrayValue', id: 5 },
      },
    },
    ArrayValue: { fields: { values: { rule: 'repeated', type: 'AnyValue', id: 1 } } },
    KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
    Resource: { fields: { attributes: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
    InstrumentationScope: { fields: { name: { type: 'string', id: 1 } } },
    // Traces.
    Status: { fields: { message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } } },
    Span: {
      fields: {
        traceId: { type: 'bytes', id: 1 },
        spanId: { type: 'bytes', id: 2 },
        traceState: { type: 'string', id: 3 },
        parentSpanId: { type: 'bytes', id: 4 },
        name: { type: 'string', id: 5 },
        kind: { type: 'int32', id: 6 },
        attributes: { rule: 'repeated', type: 'KeyValue', id: 9 },
        status: { type: 'Status', id: 15 },
      },
    },
    ScopeSpans: {
      fields: {
        scope: { type: 'InstrumentationScope', id: 1 },
        spans: { rule: 'repeated', type: 'Span', id: 2 },
      },
    },
    ResourceSpans: {
      fields: {
        resource: { type: 'Resource', id: 1 },
        scopeSpans: { rule: 'repeated', type: 'ScopeSpans', id: 2 },
      },
    },
    ExportTraceServiceRequest: {
      fields: { resourceSpans: { rule: 'repeated', type: 'ResourceSpans', id: 1 } },
    },
    // Metrics: sums only.
    NumberDataPoint: {
      oneofs: { value: { oneof: ['asDouble', 'asInt'] } },
      fields: {
        attributes: { rule: 'repeated', type: 'KeyValue', id: 7 },
        startTimeUnixNano: { type: 'fixed64', id: 2 },
        timeUnixNano: { type: 'fixed64', id: 3 },
        asDouble: { type: 'double', id: 4 },
        asInt: { type: 'sfixed64', id: 6 },
      },
    },
    Sum: {
      fields: {
        dataPoints: { rule: 'repeated', type: 'NumberDataPoint', id: 1 },
        aggregationTemporality: { type: 'int32', id: 2 },
        isMonotonic: { type: 'bool', id: 3 },
      },
    },
    Metric: { fields: { name: { type: 'string', id: 1 }, sum: { type: 'Sum', id: 7 } } },
    ScopeMetrics: {
      fields: {
        scope: { type: 'InstrumentationScope', id: 1 },
        metrics: { rule: 'repeated', type: 'Metric', id: 2 },
      },
    },
    ResourceMetrics: {
      fields: {
        resource: { type: 'Resource', id: 1 },
        scopeMetrics: { rule: 'repeated', type: 'ScopeMetrics', id: 2 },
      },
    },
    ExportMetricsServiceRequest: {
      fields: { resourceMetrics: { rule: 'repeated', type: 'ResourceMetrics', id: 1 } },
    },
    // Logs.
    LogRecord: {
      fields: {
        timeUnixNano: { type: 'fixed64', id: 1 },
        severityNumber: { type: 'int32', id: 2 },
        severityText: { type: 'string', id: 3 },
        body: { type: 'AnyValue', id: 5 },
        attributes: { rule: 'repeated', type: 'KeyValue', id: 6 },
        traceId: { type: 'bytes', id: 9 },
        spanId: { type: 'bytes', id: 10 },
      },
    },
    ScopeLogs: {
      fields: {
        scope: { type: 'InstrumentationScope', id: 1 },
        logRecords: { rule: 'repeated', type: 'LogRecord', id: 2 },
      },
    },
    ResourceLogs: {
      fields: {
        resource: { type: 'Resource', id: 1 },
        scopeLogs: { rule: 'repeated', type: 'ScopeLogs', id: 2 },
      },
    },
    ExportLogsServiceRequest: {
      fields: { resourceLogs: { rule: 'repeated', type: 'ResourceLogs', id: 1 } },
    },
  },
});
export const ExportTraceRequest = root.lookupType('ExportTraceServiceRequest');
export const ExportMetricsRequest = root.lookupType('ExportMetricsServiceRequest');
export const ExportLogsRequest = root.lookupType('ExportLogsServiceRequest');

/** An AnyValue as protobufjs renders it (`s`, `b`, …) or as OTLP/JSON spells it (`stringValue`, …). */
export interface WireValue {
  s?: string;
  b?: boolean;
  i?: number | string;
  d?: number;
  a?: { values?: WireValue[] };
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: WireValue[] };
}
export interface WireKeyValue {
  key: string;
  value?: WireValue;
}

/** One AnyValue as a JavaScript value (int64 as a number). */
export function anyValue(v: WireValue | undefined): unknown {
  if (!v) return undefined;
  const s = v.s ?? v.stringValue;
  if (s !== undefined) return s;
  const b = v.b ?? v.boolValue;
  if (b !== undefined) return b;
  const i = v.i ?? v.intValue;
  if (i !== undefined) return Number(i);
  const d = v.d ?? v.doubleValue;
  if (d !== undefined) return d;
  const a = v.a ?? v.arrayValue;
  return a ? (a.values ?? []).map(anyValue) : undefined;
}

/** Key-values as a plain record of JavaScript values (int64 as a number). */
export function attributesOf(kvs: WireKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((kvs ?? []).map((kv) => [kv.key, anyValue(kv.value)]));
}
