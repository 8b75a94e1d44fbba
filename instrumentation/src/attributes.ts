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
/** 1-based attempt number of a call made through withRetry (absent means 1). */
export const ATTR_ATTEMPT = 'faultline.attempt';
/** true on a repeat of an identical call after a non-retryable envelope. */
export const ATTR_MISROUTED_RETRY = 'faultline.misrouted_retry';
/** W3C baggage key that carries the correlation id across services. */
export const BAGGAGE_CORRELATION_ID = 'faultline.correlation_id';
