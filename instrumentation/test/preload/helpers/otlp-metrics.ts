import { attributesOf, ExportMetricsRequest, type WireKeyValue } from './otlp-wire.js';

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

/** The sums' data points of one export request, protobuf or JSON by its content type. */
export function decodeMetricsRequest(body: Buffer, contentType: string): ReceivedPoint[] {
  const request = contentType.includes('json')
    ? (JSON.parse(body.toString('utf8')) as WireRequest)
    : (ExportMetricsRequest.toObject(ExportMetricsRequest.decode(body), { longs: String }) as WireRequest);
  const points: ReceivedPoint[] = [];
  for (const rm of request.resourceMetrics ?? []) {
    const resource = attributesOf(rm.resource?.attributes);
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
            attributes: attributesOf(p.attributes),
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
