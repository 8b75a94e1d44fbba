import protobuf from 'protobufjs';

/** One data point of a sum, flattened from either OTLP encoding so tests assert on plain values. */
export interface ReceivedPoint {
  service: string;
  resource: Record<string, unknown>;
  scope: string;
  metric: string;
  /** OTLP enum: 1 delta, 2 cumulative. */
  temporality: number;
  monotonic: boolean;
  attributes: Record<string, unknown>;
  value: number;
  startTimeUnixNano: string;
  timeUnixNano: string;
}

/** The subset of opentelemetry/proto/collector/metrics/v1 a sum needs. */
const root = protobuf.Root.fromJSON({
  nested: {
    AnyValue: {
      oneofs: { value: { oneof: ['s', 'b', 'i', 'd'] } },
      fields: {
        s: { type: 'string', id: 1 },
        b: { type: 'bool', id: 2 },
        i: { type: 'int64', id: 3 },
        d: { type: 'double', id: 4 },
      },
    },
    KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
    Resource: { fields: { attributes: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
    InstrumentationScope: { fields: { name: { type: 'string', id: 1 } } },
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
  },
});
const ExportRequest = root.lookupType('ExportMetricsServiceRequest');

interface WireValue {
  s?: string;
  b?: boolean;
  i?: number | string;
  d?: number;
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
}
interface WireKeyValue {
  key: string;
  value?: WireValue;
}
interface WirePoint {
  attributes?: WireKeyValue[];
  startTimeUnixNano?: number | string;
  timeUnixNano?: number | string;
  asDouble?: number;
  asInt?: number | string;
}
interface WireRequest {
  resourceMetrics?: {
    resource?: { attributes?: WireKeyValue[] };
    scopeMetrics?: {
      scope?: { name?: string };
      metrics?: {
        name?: string;
        sum?: { dataPoints?: WirePoint[]; aggregationTemporality?: number; isMonotonic?: boolean };
      }[];
    }[];
  }[];
}

function anyValue(v: WireValue | undefined): unknown {
  if (!v) return undefined;
  const s = v.s ?? v.stringValue;
  if (s !== undefined) return s;
  const b = v.b ?? v.boolValue;
  if (b !== undefined) return b;
  const i = v.i ?? v.intValue;
  if (i !== undefined) return Number(i);
  return v.d ?? v.doubleValue;
}

const record = (kvs: WireKeyValue[] | undefined) =>
  Object.fromEntries((kvs ?? []).map((kv) => [kv.key, anyValue(kv.value)]));

/** The sums' data points of one export request, protobuf or JSON by its content type. */
export function decodeMetricsRequest(body: Buffer, contentType: string): ReceivedPoint[] {
  const request = contentType.includes('json')
    ? (JSON.parse(body.toString('utf8')) as WireRequest)
    : (ExportRequest.toObject(ExportRequest.decode(body), { longs: String }) as WireRequest);
  const points: ReceivedPoint[] = [];
  for (const rm of request.resourceMetrics ?? []) {
    const resource = record(rm.resource?.attributes);
    for (const sm of rm.scopeMetrics ?? []) {
      for (const metric of sm.metrics ?? []) {
        for (const p of metric.sum?.dataPoints ?? []) {
          points.push({
            service: String(resource['service.name'] ?? ''),
            resource,
            scope: sm.scope?.name ?? '',
            metric: metric.name ?? '',
            temporality: metric.sum?.aggregationTemporality ?? 0,
            monotonic: metric.sum?.isMonotonic ?? false,
            attributes: record(p.attributes),
            value: Number(p.asInt ?? p.asDouble),
            startTimeUnixNano: String(p.startTimeUnixNano ?? ''),
            timeUnixNano: String(p.timeUnixNano ?? ''),
          });
        }
      }
    }
  }
  return points;
}
