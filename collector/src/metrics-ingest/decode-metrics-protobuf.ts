import type { DecodeLimits } from '../otlp/decode-context.js';
import { decodeKeyValue, expectWire, withEnd } from '../otlp/decode-protobuf.js';
import { ProtoReader } from '../otlp/proto-reader.js';
import { nanosFromHalves, type UnixNanos } from '../otlp/unix-nanos.js';
import { countMetricOf } from './call-count-row.js';
import {
  type DecodedPoint,
  type MetricDataKind,
  MetricsDecodeContext,
  type MetricsDecodeResult,
} from './metrics-decode-context.js';

/*
 * ExportMetricsServiceRequest (opentelemetry-proto metrics/v1) read with the trace decoder's
 * bounds-checked wire reader and attribute decoding. Only faultline.calls and faultline.failures
 * are read down to their data points; any other metric is skipped after counting its points.
 * Field numbers are from metrics.proto; unknown fields are skipped as protobuf requires.
 */

const LEN = 2;
const VARINT = 0;
const I64 = 1;

/** Metric's `data` oneof: field number → kind. */
const DATA_FIELDS: Record<number, MetricDataKind> = {
  5: 'Gauge',
  7: 'Sum',
  9: 'Histogram',
  10: 'ExponentialHistogram',
  11: 'Summary',
};

const ZERO_TIME: UnixNanos = { sec: 0, ns: 0 };

export function decodeMetricsProtobuf(body: Buffer, limits: DecodeLimits): MetricsDecodeResult {
  const ctx = new MetricsDecodeContext(limits);
  const r = new ProtoReader(body);
  while (r.pos < r.end) {
    const tag = r.uint32();
    if (tag === ((1 << 3) | LEN)) {
      const end = r.delimitedEnd();
      withEnd(r, end, () => decodeResourceMetrics(r, ctx));
    } else r.skip(tag & 7);
  }
  return ctx.result();
}

function decodeResourceMetrics(r: ProtoReader, ctx: MetricsDecodeContext): void {
  const resource: Record<string, string> = {};
  // `resource` may follow `scope_metrics` on the wire; rows need its service.name, so they wait.
  const scopes: number[] = [];
  while (r.pos < r.end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if (field === 1) {
      expectWire('ResourceMetrics.resource', tag & 7, LEN);
      const end = r.delimitedEnd();
      withEnd(r, end, () => {
        while (r.pos < r.end) {
          const t = r.uint32();
          if (t >>> 3 === 1) {
            expectWire('Resource.attributes', t & 7, LEN);
            decodeKeyValue(r, r.delimitedEnd(), ctx.values, resource);
          } else r.skip(t & 7);
        }
      });
    } else if (field === 2) {
      expectWire('ResourceMetrics.scope_metrics', tag & 7, LEN);
      const end = r.delimitedEnd();
      scopes.push(r.pos, end);
      r.pos = end;
    } else r.skip(tag & 7);
  }
  const service = resource['service.name'] ?? '';
  for (let i = 0; i < scopes.length; i += 2) {
    r.pos = scopes[i]!;
    withEnd(r, scopes[i + 1]!, () => {
      while (r.pos < r.end) {
        const tag = r.uint32();
        if (tag >>> 3 === 2) {
          expectWire('ScopeMetrics.metrics', tag & 7, LEN);
          const end = r.delimitedEnd();
          withEnd(r, end, () => decodeMetric(r, ctx, service));
        } else r.skip(tag & 7);
      }
    });
  }
}

function decodeMetric(r: ProtoReader, ctx: MetricsDecodeContext, service: string): void {
  let name = '';
  let kind: MetricDataKind = 'none';
  let dataStart = 0;
  let dataEnd = 0;
  while (r.pos < r.end) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if (field === 1) {
      expectWire('Metric.name', tag & 7, LEN);
      name = r.string();
    } else if (DATA_FIELDS[field] !== undefined) {
      expectWire(`Metric.${DATA_FIELDS[field]}`, tag & 7, LEN);
      // A oneof: the last one on the wire wins, as protobuf parsers do.
      dataEnd = r.delimitedEnd();
      dataStart = r.pos;
      kind = DATA_FIELDS[field];
      r.pos = dataEnd;
    } else r.skip(tag & 7);
  }
  const metric = countMetricOf(name);
  const points = kind === 'none' ? 0 : countPoints(r, dataStart, dataEnd);
  if (!metric) {
    ctx.ignore(name, points);
    return;
  }
  r.pos = dataStart;
  withEnd(r, dataEnd, () => {
    const temporality = kind === 'Sum' ? readTemporality(r) : 0;
    const problem = ctx.metricProblem(name, kind, temporality);
    if (problem) {
      ctx.reject(points, problem);
      return;
    }
    r.pos = dataStart;
    while (r.pos < r.end) {
      const tag = r.uint32();
      if (tag >>> 3 === 1) {
        expectWire('Sum.data_points', tag & 7, LEN);
        const end = r.delimitedEnd();
        withEnd(r, end, () => ctx.addPoint(metric, name, service, decodeNumberPoint(r, ctx)));
      } else r.skip(tag & 7);
    }
  });
}

/** Data points of any data kind: every kind keeps them in field 1. */
function countPoints(r: ProtoReader, start: number, end: number): number {
  let n = 0;
  r.pos = start;
  withEnd(r, end, () => {
    while (r.pos < r.end) {
      const tag = r.uint32();
      if (tag === ((1 << 3) | LEN)) n++;
      r.skip(tag & 7);
    }
  });
  return n;
}

/** Sum.aggregation_temporality (field 2); 0 (UNSPECIFIED) when absent. */
function readTemporality(r: ProtoReader): number {
  let temporality = 0;
  while (r.pos < r.end) {
    const tag = r.uint32();
    if (tag >>> 3 === 2) {
      expectWire('Sum.aggregation_temporality', tag & 7, VARINT);
      temporality = r.uint32() | 0;
    } else r.skip(tag & 7);
  }
  return temporality;
}

function decodeNumberPoint(r: ProtoReader, ctx: MetricsDecodeContext): DecodedPoint {
  const point: DecodedPoint = { attributes: {}, time: ZERO_TIME, value: undefined, flags: 0 };
  while (r.pos < r.end) {
    const tag = r.uint32();
    const wire = tag & 7;
    switch (tag >>> 3) {
      case 3: {
        expectWire('NumberDataPoint.time_unix_nano', wire, I64);
        const [lo, hi] = r.fixed64();
        point.time = nanosFromHalves(lo, hi);
        break;
      }
      case 4:
        expectWire('NumberDataPoint.as_double', wire, I64);
        point.value = r.double();
        break;
      case 6: {
        expectWire('NumberDataPoint.as_int', wire, I64);
        const [lo, hi] = r.fixed64();
        // sfixed64: two's complement. Past 2^53 the count rounds, as the Float64 column would.
        point.value = hi >= 0x80000000 ? (hi - 0x100000000) * 0x100000000 + lo : hi * 0x100000000 + lo;
        break;
      }
      case 7:
        expectWire('NumberDataPoint.attributes', wire, LEN);
        decodeKeyValue(r, r.delimitedEnd(), ctx.values, point.attributes);
        break;
      case 8:
        expectWire('NumberDataPoint.flags', wire, VARINT);
        point.flags = r.uint32();
        break;
      default:
        r.skip(wire);
    }
  }
  return point;
}
