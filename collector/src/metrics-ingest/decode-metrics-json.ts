import type { DecodeLimits } from '../otlp/decode-context.js';
import {
  array,
  attributes,
  doubleJson,
  get,
  int64Json,
  type Json,
  object,
  string,
} from '../otlp/decode-json.js';
import { OtlpDecodeError } from '../otlp/otlp-decode-error.js';
import { quoteLongIntegers } from '../otlp/quote-long-integers.js';
import { nanosFromJson } from '../otlp/unix-nanos.js';
import { countMetricOf } from './call-count-row.js';
import {
  type DecodedPoint,
  type MetricDataKind,
  MetricsDecodeContext,
  type MetricsDecodeResult,
} from './metrics-decode-context.js';

/*
 * ExportMetricsServiceRequest in OTLP/JSON, walked with the trace decoder's type-checked readers:
 * lowerCamelCase or snake_case names, enums as ints or names, int64 as strings or numbers (exact,
 * see quote-long-integers.ts). A wrong JSON type is a 400 naming the path.
 */

/** Metric's `data` oneof members, as JSON names them. */
const DATA_KEYS: [camel: string, snake: string, kind: MetricDataKind][] = [
  ['gauge', 'gauge', 'Gauge'],
  ['sum', 'sum', 'Sum'],
  ['histogram', 'histogram', 'Histogram'],
  ['exponentialHistogram', 'exponential_histogram', 'ExponentialHistogram'],
  ['summary', 'summary', 'Summary'],
];

const TEMPORALITIES: Record<string, number> = {
  AGGREGATION_TEMPORALITY_UNSPECIFIED: 0,
  AGGREGATION_TEMPORALITY_DELTA: 1,
  AGGREGATION_TEMPORALITY_CUMULATIVE: 2,
};

export function decodeMetricsJson(text: string, limits: DecodeLimits): MetricsDecodeResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(quoteLongIntegers(text));
  } catch (err) {
    throw new OtlpDecodeError(`invalid JSON: ${(err as Error).message}`);
  }
  // As for traces: `null`, `[]` or `5` is no request, and a 200 would tell a broken client all is well.
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new OtlpDecodeError('$: expected an ExportMetricsServiceRequest object');
  }
  const ctx = new MetricsDecodeContext(limits);
  const resourceMetrics = array(
    get(parsed as Json, 'resourceMetrics', 'resource_metrics'),
    'resourceMetrics',
  );
  for (let i = 0; i < resourceMetrics.length; i++) {
    const path = `resourceMetrics[${i}]`;
    const rm = object(resourceMetrics[i], path);
    const resource = object(rm.resource, `${path}.resource`);
    const service =
      attributes(resource.attributes, `${path}.resource.attributes`, ctx.values)['service.name'] ?? '';
    const scopes = array(get(rm, 'scopeMetrics', 'scope_metrics'), `${path}.scopeMetrics`);
    for (let j = 0; j < scopes.length; j++) {
      const sp = `${path}.scopeMetrics[${j}]`;
      const metrics = array(object(scopes[j], sp).metrics, `${sp}.metrics`);
      for (let k = 0; k < metrics.length; k++) {
        decodeMetric(object(metrics[k], `${sp}.metrics[${k}]`), `${sp}.metrics[${k}]`, ctx, service);
      }
    }
  }
  return ctx.result();
}

function decodeMetric(m: Json, path: string, ctx: MetricsDecodeContext, service: string): void {
  const name = string(m.name, `${path}.name`);
  let kind: MetricDataKind = 'none';
  let data: Json = {};
  let dataPath = path;
  for (const [camel, snake, k] of DATA_KEYS) {
    const v = get(m, camel, snake);
    if (v === undefined || v === null) continue;
    kind = k;
    dataPath = `${path}.${camel}`;
    data = object(v, dataPath);
  }
  const points = array(get(data, 'dataPoints', 'data_points'), `${dataPath}.dataPoints`);
  const metric = countMetricOf(name);
  if (!metric) {
    ctx.ignore(name, points.length);
    return;
  }
  const temporality =
    kind === 'Sum'
      ? temporalityOf(get(data, 'aggregationTemporality', 'aggregation_temporality'), dataPath)
      : 0;
  const problem = ctx.metricProblem(name, kind, temporality);
  if (problem) {
    ctx.reject(points.length, problem);
    return;
  }
  for (let i = 0; i < points.length; i++) {
    const pp = `${dataPath}.dataPoints[${i}]`;
    ctx.addPoint(metric, name, service, decodePoint(object(points[i], pp), pp, ctx));
  }
}

function temporalityOf(v: unknown, path: string): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string' && Object.hasOwn(TEMPORALITIES, v)) return TEMPORALITIES[v]!;
  throw new OtlpDecodeError(
    `${path}.aggregationTemporality: expected an AggregationTemporality number or name`,
  );
}

function decodePoint(p: Json, path: string, ctx: MetricsDecodeContext): DecodedPoint {
  const asInt = get(p, 'asInt', 'as_int');
  const asDouble = get(p, 'asDouble', 'as_double');
  let value: number | undefined;
  if (asInt !== undefined && asInt !== null) value = Number(int64Json(asInt, `${path}.asInt`));
  else if (asDouble !== undefined && asDouble !== null) value = doubleJson(asDouble, `${path}.asDouble`);
  const flags = p.flags ?? 0;
  if (typeof flags !== 'number' || !Number.isInteger(flags) || flags < 0) {
    throw new OtlpDecodeError(`${path}.flags: expected an unsigned integer`);
  }
  return {
    attributes: attributes(p.attributes, `${path}.attributes`, ctx.values),
    time: nanosFromJson(get(p, 'timeUnixNano', 'time_unix_nano'), `${path}.timeUnixNano`),
    value,
    flags,
  };
}
