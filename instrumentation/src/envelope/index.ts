/**
 * `@faultline/instrumentation/envelope`: the envelope contract in one place — the classes and
 * their actions, the envelope's rules and builder, the span attributes it travels as (one writer
 * for the exported and the stored form), and the span reads both ends share. Pure: loads no OpenTelemetry module.
 * What the collector derives from a span needs the HTTP classifier above this folder: the
 * subpath entry (src/envelope-entry.ts) adds it.
 */

export type { Envelope, ErrorClass, ErrorSource, JsonValue, ModelEnvelope } from '../types.js';
export { allowedRetryAfter } from './allowed-retry-after.js';
export * as attributes from './attribute-names.js';
export { DISTRO_NAME, DISTRO_NAME_KEY } from './attribute-names.js';
export { boundedJson, RAW_MAX_CHARS } from './bounded-json.js';
export * as countMetrics from './count-metrics.js';
export * as countingRules from './counting-rules.js';
export { createEnvelope, type EnvelopeInit, MAX_MESSAGE_CHARS } from './create-envelope.js';
export { dbSystemOf } from './db-system.js';
export {
  type AttributeForm,
  type EnvelopeSpan,
  envelopeAttributes,
} from './envelope-attributes.js';
export { envelopeJsonSchema, modelEnvelopeJsonSchema } from './envelope-json-schema.js';
export { CLASS_ACTIONS, defaultRetryable, ERROR_CLASSES, isErrorClass } from './error-classes.js';
export { failingHttpStatusOf, httpStatusOf } from './http-status-of.js';
export { type SamplingWeight, samplingWeightOf, spanWeightOf } from './sampling-weight.js';
export { sanitizeEnvelopeAttributes } from './sanitize-envelope-attributes.js';
export { sourceOf } from './span-source.js';
export { toModelEnvelope } from './to-model-envelope.js';
export { boundedText, RAW_LIMITS, toRaw } from './to-raw.js';
