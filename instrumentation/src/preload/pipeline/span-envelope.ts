import { type Attributes, type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  ATTR_CLASS,
  ATTR_CODE,
  ATTR_CORRELATION_ID,
  ATTR_MESSAGE,
  ATTR_RAW,
  ATTR_RETRY_AFTER,
  ATTR_RETRYABLE,
  ATTR_SOURCE,
} from '../../attributes.js';
import { sourceOf } from '../../span-source.js';
import type { Envelope } from '../../types.js';
import { holdTransportEnvelope, isTransport } from './call-role.js';
import { correlationIdOfSpan } from './correlation.js';
import { attributesOf } from './span-attributes.js';

/** Longest `faultline.raw` string put on a span; the collector stores it as is. */
export const RAW_MAX_CHARS = 4096;

export function hasEnvelope(span: Span): boolean {
  return attributesOf(span)[ATTR_CLASS] !== undefined;
}

/**
 * Off by default: what the collector derives from the span itself stays off the wire
 * (derived-attributes.ts). FAULTLINE_EXPORT_DERIVED turns it on for a backend that reads the
 * spans without the Faultline collector. Set once, at start.
 */
let exportDerived = false;

export function setExportDerived(on: boolean): void {
  exportDerived = on;
}

/**
 * Writes the envelope as span attributes and marks the span failed. `error.type` is only filled
 * when the instrumentation left it empty, because semconv owns that attribute. A transport request
 * (call-role.ts) gets no envelope: the one a hook reached for it is held for its operation span.
 * What the collector derives travels only with FAULTLINE_EXPORT_DERIVED: the source the span's
 * semconv attributes imply, error.type equal to the code, and the status description equal to the
 * message (sent empty; a later description from the instrumentation still wins).
 */
export function setEnvelope(span: Span, envelope: Envelope): void {
  if (isTransport(span)) {
    holdTransportEnvelope(span, envelope);
    return;
  }
  const current = attributesOf(span);
  const attrs: Attributes = {
    [ATTR_CLASS]: envelope.class,
    [ATTR_CODE]: envelope.code,
    [ATTR_MESSAGE]: envelope.message,
    [ATTR_RETRYABLE]: envelope.retryable,
    [ATTR_RAW]: boundedJson(envelope.raw),
  };
  const kind = (span as unknown as { kind?: SpanKind }).kind;
  const derivable = !exportDerived && (kind === SpanKind.CLIENT || kind === SpanKind.SERVER);
  if (!derivable || envelope.source !== sourceOf(current)) attrs[ATTR_SOURCE] = envelope.source;
  if (envelope.retry_after !== null) attrs[ATTR_RETRY_AFTER] = envelope.retry_after;
  // Only an id other than the span's own goes on the wire (derived-attributes.ts).
  if (envelope.correlation_id && envelope.correlation_id !== correlationIdOfSpan(span)) {
    attrs[ATTR_CORRELATION_ID] = envelope.correlation_id;
  }
  if (exportDerived && current['error.type'] === undefined)
    attrs['error.type'] = envelope.code || envelope.class;
  span.setAttributes(attrs);
  span.setStatus({ code: SpanStatusCode.ERROR, message: exportDerived ? envelope.message : '' });
}

function boundedJson(raw: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(raw ?? null) ?? 'null';
  } catch {
    text = 'null';
  }
  // Cutting JSON mid-way would leave an unparseable string: keep it valid by wrapping the prefix.
  return text.length <= RAW_MAX_CHARS
    ? text
    : JSON.stringify({ truncated: true, prefix: text.slice(0, RAW_MAX_CHARS - 64) });
}
