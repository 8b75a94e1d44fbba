/**
 * The in-process counts the preload exports as OTLP metrics (delta sums, monotonic) to the
 * collector's /v1/metrics and gRPC MetricsService, so that budgets, burn and alerts stay exact
 * whatever the trace sampler kept. A contract between the preload (instrumentation/src/preload),
 * the collector's metrics receiver and the call_counts_1m table (sql/schema/050_call_counts_1m.sql):
 * change them together. The service is the resource's service.name.
 *
 * One data point per minute-bucket of:
 * - COUNT_CALLS: every logical call the counting rule counts (faultline_counted_call: CLIENT and
 *   SERVER spans and spans tagged with a source, never a transport request or a successful
 *   checkout; an SDK's internal retries count each attempt), failures included.
 * - COUNT_FAILURES: the failed ones among them (faultline_failed), by class and code.
 */
export const COUNT_METER_NAME = '@faultline/instrumentation';
export const COUNT_CALLS = 'faultline.calls';
export const COUNT_FAILURES = 'faultline.failures';

/** Data point attributes, on both metrics unless said otherwise. */
/** 'Client', 'Server', 'Producer', 'Consumer' or 'Internal' (faultline_span_kind's spelling). */
export const COUNT_ATTR_SPAN_KIND = 'faultline.span_kind';
/** faultline_source's value for the span. */
export const COUNT_ATTR_SOURCE = 'faultline.source';
/** faultline_call_dependency's value for the span ('' when it names none). */
export const COUNT_ATTR_DEPENDENCY = 'faultline.dependency';
/** true on a root SERVER span (no parent): an entry request, the Overview's request budget. */
export const COUNT_ATTR_ENTRY = 'faultline.entry';
/** Failures only: the envelope's class ('' when the span failed unclassified) and code. */
export const COUNT_ATTR_CLASS = 'faultline.class';
export const COUNT_ATTR_CODE = 'faultline.code';
/** Failures only: true when a failure below it in the same process came first (an echo). */
export const COUNT_ATTR_PROPAGATED = 'faultline.propagated';
