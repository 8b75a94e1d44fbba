import { countMetrics } from '@faultline/instrumentation';

// The contract's names (instrumentation/src/envelope/count-metrics.ts): the preload, this
// receiver and the table change together.
const {
  COUNT_ATTR_CLASS,
  COUNT_ATTR_CODE,
  COUNT_ATTR_DEPENDENCY,
  COUNT_ATTR_ENTRY,
  COUNT_ATTR_PROPAGATED,
  COUNT_ATTR_SOURCE,
  COUNT_ATTR_SPAN_KIND,
  COUNT_CALLS,
  COUNT_FAILURES,
} = countMetrics;

/** The table the preload's exact counts land in (sql/schema/050_call_counts_1m.sql). */
export const CALL_COUNTS_TABLE = 'call_counts_1m';

/** One row of call_counts_1m: one delta data point of faultline.calls or faultline.failures. */
export interface CallCountRow {
  /** toStartOfMinute of the point's time_unix_nano (the end of its interval), in unix seconds. */
  minute: number;
  ServiceName: string;
  SpanKind: string;
  source: string;
  dependency: string;
  class: string;
  code: string;
  entry: boolean;
  propagated: boolean;
  calls: number;
  failures: number;
}

/** Which of the two stored metrics a name is, or undefined for any other metric. */
export type CountMetric = 'calls' | 'failures';

export function countMetricOf(name: string): CountMetric | undefined {
  if (name === COUNT_CALLS) return 'calls';
  if (name === COUNT_FAILURES) return 'failures';
  return undefined;
}

/**
 * The row of one accepted data point. Attributes arrive stringified (pcommon AsString, already cut
 * to the receiver's value length): a bool reads 'true'. A calls point has no class, code or
 * propagated of its own (the contract puts them on failures only), so they are '' and false even
 * if a sender added them, keeping calls rows on one key per call shape.
 */
export function callCountRow(
  metric: CountMetric,
  serviceName: string,
  attributes: Record<string, string>,
  minute: number,
  value: number,
): CallCountRow {
  const failures = metric === 'failures';
  return {
    minute,
    ServiceName: serviceName,
    SpanKind: attributes[COUNT_ATTR_SPAN_KIND] ?? '',
    source: attributes[COUNT_ATTR_SOURCE] ?? '',
    dependency: attributes[COUNT_ATTR_DEPENDENCY] ?? '',
    class: failures ? (attributes[COUNT_ATTR_CLASS] ?? '') : '',
    code: failures ? (attributes[COUNT_ATTR_CODE] ?? '') : '',
    entry: attributes[COUNT_ATTR_ENTRY] === 'true',
    propagated: failures && attributes[COUNT_ATTR_PROPAGATED] === 'true',
    calls: failures ? 0 : value,
    failures: failures ? value : 0,
  };
}
