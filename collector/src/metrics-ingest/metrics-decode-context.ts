import { DecodeContext, type DecodeLimits } from '../otlp/decode-context.js';
import { OtlpDecodeError } from '../otlp/otlp-decode-error.js';
import { EARLIEST_START_SEC, MAX_FUTURE_SEC } from '../otlp/span-times.js';
import { clip, type UnixNanos } from '../otlp/unix-nanos.js';
import { type CallCountRow, type CountMetric, callCountRow } from './call-count-row.js';

export interface MetricsDecodeResult {
  rows: CallCountRow[];
  /** faultline.* data points refused (not a delta Sum, no value, a bad value or time). */
  rejectedPoints: number;
  /** Data points of other metrics: accepted and not stored. */
  ignoredPoints: number;
  /** partial_success.error_message: why points were refused, what was ignored; '' when nothing. */
  message: string;
  truncatedValues: number;
}

/** The metric data kinds OTLP has, as its messages name them (for refusals). */
export type MetricDataKind = 'Gauge' | 'Sum' | 'Histogram' | 'ExponentialHistogram' | 'Summary' | 'none';

/** AggregationTemporality values; names as in the proto. */
export const TEMPORALITY_DELTA = 1;
const TEMPORALITY_NAMES = ['UNSPECIFIED', 'DELTA', 'CUMULATIVE'];

/** A data point as both decoders hand it over, before the checks. */
export interface DecodedPoint {
  attributes: Record<string, string>;
  time: UnixNanos;
  /** undefined when the point carries neither as_int nor as_double. */
  value: number | undefined;
  /** DataPointFlags: bit 0 = FLAG_NO_RECORDED_VALUE (a staleness marker, nothing to count). */
  flags: number;
}

const NO_RECORDED_VALUE = 1;
const FIRST_IGNORED_NAMES = 3;

/**
 * One ExportMetricsServiceRequest's rows and verdicts, shared by the protobuf and JSON decoders.
 * Attribute values go through a trace DecodeContext (`values`), so they get exactly the trace
 * path's bounds (length cut and counted, nesting depth) and the attribute decoders stay
 * monomorphic on the trace hot path.
 */
export class MetricsDecodeContext {
  readonly values: DecodeContext;
  readonly rows: CallCountRow[] = [];
  readonly nowSec = Date.now() / 1000;
  rejectedPoints = 0;
  ignoredPoints = 0;
  private firstRejection = '';
  private readonly ignoredNames = new Set<string>();

  constructor(private readonly limits: DecodeLimits) {
    this.values = new DecodeContext(limits);
  }

  /** Points of a metric this collector does not store: accepted, counted, dropped. */
  ignore(name: string, points: number): void {
    this.ignoredPoints += points;
    if (this.ignoredNames.size < FIRST_IGNORED_NAMES) this.ignoredNames.add(clip(name, 100));
  }

  /**
   * Why a faultline.* metric's points cannot be stored as exact counts, or '' when they can: only
   * a Sum in DELTA temporality adds up row by row. A cumulative sum's points repeat the running
   * total, so storing them would count every call again at each export.
   */
  metricProblem(name: string, kind: MetricDataKind, temporality: number): string {
    if (kind !== 'Sum') {
      return `${name} must be a Sum (a monotonic counter), got ${kind === 'none' ? 'no data' : `a ${kind}`}: export delta sums`;
    }
    if (temporality === TEMPORALITY_DELTA) return '';
    const got = TEMPORALITY_NAMES[temporality] ?? String(temporality);
    return (
      `${name} has AGGREGATION_TEMPORALITY_${got}; only DELTA sums are stored: export delta sums ` +
      "(the OTLP metric exporter's temporalityPreference 'delta', or " +
      'OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE=delta)'
    );
  }

  reject(points: number, reason: string): void {
    if (points <= 0) return;
    if (this.rejectedPoints === 0) this.firstRejection = reason;
    this.rejectedPoints += points;
  }

  /** Checks one delta Sum point and adds its row, or rejects it with the reason. */
  addPoint(metric: CountMetric, name: string, serviceName: string, point: DecodedPoint): void {
    if ((point.flags & NO_RECORDED_VALUE) !== 0) return;
    const problem = this.pointProblem(name, point);
    if (problem) {
      this.reject(1, problem);
      return;
    }
    if (this.rows.length >= this.limits.maxSpansPerRequest) {
      throw new OtlpDecodeError(
        `request holds more than ${this.limits.maxSpansPerRequest} faultline.* data points; export ` +
          'more often or raise FAULTLINE_MAX_SPANS_PER_REQUEST (it bounds data points too)',
        413,
      );
    }
    const { sec } = point.time;
    this.rows.push(callCountRow(metric, serviceName, point.attributes, sec - (sec % 60), point.value!));
  }

  /** Why a point cannot be stored, or '' when it can. */
  private pointProblem(name: string, { value, time }: DecodedPoint): string {
    if (value === undefined) return `a ${name} data point has no value (asInt or asDouble)`;
    // Negative or non-finite deltas cannot be counts of calls; NaN would poison every sum it joins.
    if (!Number.isFinite(value) || value < 0) {
      return `a ${name} data point has value ${value}: counts must be finite and >= 0`;
    }
    if (time.sec === 0 && time.ns === 0)
      return `a ${name} data point has no timeUnixNano (the end of its interval)`;
    // The span path's accepted range: a broken clock is refused, not stored in a far partition.
    if (time.sec < EARLIEST_START_SEC || time.sec > this.nowSec + MAX_FUTURE_SEC) {
      return (
        `a ${name} data point's timeUnixNano (${time.sec} s) is outside the accepted range ` +
        "(2000-01-01 to 24 h past the collector's clock): check the sending host's clock"
      );
    }
    return '';
  }

  result(): MetricsDecodeResult {
    const notes: string[] = [];
    if (this.rejectedPoints > 0) {
      notes.push(`${this.rejectedPoints} data point(s) rejected: ${this.firstRejection}`);
    }
    if (this.ignoredPoints > 0) {
      notes.push(
        `only faultline.calls and faultline.failures are stored; ${this.ignoredPoints} data point(s) ` +
          `of other metrics were accepted and ignored (${[...this.ignoredNames].join(', ')})`,
      );
    }
    const truncated = this.values.truncatedValues;
    if (truncated > 0) {
      notes.push(
        `${truncated} attribute value(s) truncated to ${this.limits.maxAttributeValueLength} characters`,
      );
    }
    return {
      rows: this.rows,
      rejectedPoints: this.rejectedPoints,
      ignoredPoints: this.ignoredPoints,
      message: notes.join('; '),
      truncatedValues: truncated,
    };
  }
}
