/**
 * Span attribute names under which the envelope travels. This is a contract with the collector's
 * materialized views (sql/) and the dashboard: change both together. The project namespace is
 * `faultline.*` because semantic conventions reserve `error.*`.
 */
export const ATTR_CLASS = 'faultline.class';
export const ATTR_SOURCE = 'faultline.source';
export const ATTR_CODE = 'faultline.code';
export const ATTR_MESSAGE = 'faultline.message';
/** Boolean attribute; the OTLP → ClickHouse map stores it as "true"/"false". */
export const ATTR_RETRYABLE = 'faultline.retryable';
/** Number of seconds; absent when the envelope's retry_after is null. */
export const ATTR_RETRY_AFTER = 'faultline.retry_after';
/** Set on every span of a request, failures and successes alike (denominators). */
export const ATTR_CORRELATION_ID = 'faultline.correlation_id';
/** The envelope's raw detail as a bounded JSON string. */
export const ATTR_RAW = 'faultline.raw';
/**
 * 1-based attempt number of a logical call (absent means 1): an identical repeat (same operation
 * key, same correlation id) of a call that failed is the previous attempt + 1; withRetry's number
 * stands in only for calls without an operation key.
 */
export const ATTR_ATTEMPT = 'faultline.attempt';
/** true on a repeat of an identical call after a non-retryable envelope. */
export const ATTR_MISROUTED_RETRY = 'faultline.misrouted_retry';
/**
 * Attempts a client library made inside one operation span (AWS SDK v3 `$metadata.attempts`, else
 * its transport children counted); absent means 1. Attempts 1..N-1 failed with faultline.previous_*.
 */
export const ATTR_ATTEMPTS = 'faultline.attempts';
/** Envelope class, code and message of the failed attempt just before this one (attempt or attempts > 1). */
export const ATTR_PREVIOUS_CLASS = 'faultline.previous_class';
export const ATTR_PREVIOUS_CODE = 'faultline.previous_code';
export const ATTR_PREVIOUS_MESSAGE = 'faultline.previous_message';
/** true on a failed span when a local descendant span (same process) failed first: an echo. */
export const ATTR_PROPAGATED = 'faultline.propagated';
/**
 * On a failed span that is not a server span: the span id of the call this process was serving
 * when it failed, the remote parent of the span's local root (the caller's CLIENT span, from the
 * traceparent it sent). What links a failure to its caller across services when the server span
 * between them did not fail (first_hand_failures, sql/schema/030). Absent in a request this
 * process received without a parent.
 */
export const ATTR_CALLER_SPAN_ID = 'faultline.caller_span_id';
/**
 * `transport` (a request inside another client span of the same operation: no envelope of its own)
 * or `checkout` (a pool checkout or connect that succeeded); absent on an ordinary logical call.
 */
export const ATTR_CALL_ROLE = 'faultline.call_role';
/**
 * On a failed span below an agent's tool call (an HTTP request, a query inside the tool), and on
 * the tool call itself where its own attributes do not say: the tool, agent and model of the call
 * the failure happened in, taken from the enclosing spans in the process (the AI SDK puts the
 * model on its generateText span, not on the tool span). Read after the GenAI and AI SDK
 * attributes by faultline_tool_name / _agent_name / _model_name (sql/schema/007_agent_rules.sql).
 */
export const ATTR_TOOL = 'faultline.tool';
export const ATTR_AGENT = 'faultline.agent';
export const ATTR_MODEL = 'faultline.model';
/** W3C baggage key that carries the correlation id across services. */
export const BAGGAGE_CORRELATION_ID = 'faultline.correlation_id';
/**
 * true on the root server span of a request this process received from outside (no parent span)
 * and on the calls made under it: the workflow's entry service and its steps.
 */
export const ATTR_ENTRY = 'faultline.entry';
/**
 * Who wrote the envelope when it was not the preload: `collector` on a span that arrived without
 * one and was classified at ingest (collector/src/classify). Absent on preload-classified spans.
 */
export const ATTR_CLASSIFIED_BY = 'faultline.classified_by';
export const CLASSIFIED_BY_COLLECTOR = 'collector';
/**
 * `log` on a span the collector classified with the exception of a log record that explains it
 * (same trace and span id) because the span carried no exception event of its own: its envelope is
 * no guess, so sql/schema/070_otel_logs.sql never replaces it.
 */
export const ATTR_EXCEPTION_FROM = 'faultline.exception_from';
export const EXCEPTION_FROM_LOG = 'log';
/**
 * Resource attribute (semconv `telemetry.distro.name`) the preload exports under: it tells the
 * collector which spans left their derivable attributes off the wire (derived-attributes.ts).
 */
export const DISTRO_NAME_KEY = 'telemetry.distro.name';
export const DISTRO_NAME = 'faultline';

/**
 * The envelope's eight fields as span attributes, in envelope order: what the preload writes
 * (setEnvelope), what the collector writes for a span without one, and what `failures` reads.
 */
export const ENVELOPE_ATTRIBUTES = [
  ATTR_CLASS,
  ATTR_SOURCE,
  ATTR_CODE,
  ATTR_MESSAGE,
  ATTR_RETRYABLE,
  ATTR_RETRY_AFTER,
  ATTR_CORRELATION_ID,
  ATTR_RAW,
] as const;
/**
 * Why a span of a trace the sampler did not keep was exported anyway (the preload's keep-every-
 * failure option, on by default when sampling is below 100%): `failure` — the span failed (or an
 * attempt inside it did), exported whatever the sampler said, with `ot=th:0` (weight 1) in every
 * trace, sampled or not, so failures are counted exactly; `path` — a span on the way from a kept
 * failure up to its root in the same process, exported to explain it and weighted 0 (it stands for
 * no traffic: the same span in a sampled trace carries the weight). Read by faultline_span_weight
 * (sql/schema/005_functions.sql) and spanWeightOf.
 */
export const ATTR_SAMPLING_KEPT = 'faultline.sampling.kept';
export const SAMPLING_KEPT_FAILURE = 'failure';
export const SAMPLING_KEPT_PATH = 'path';
