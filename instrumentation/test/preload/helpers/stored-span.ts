import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { addDerivedAttributes } from '../../../src/derive/derived-attributes.js';

/**
 * A finished span's attributes as the Faultline collector stores them: what the preload exported
 * plus what the collector derives from the span (derived-attributes.ts).
 */
export function storedAttributes(span: ReadableSpan): Record<string, unknown> {
  const attributes: Record<string, unknown> = { ...span.attributes };
  const kind = span.kind === SpanKind.CLIENT ? 'client' : span.kind === SpanKind.SERVER ? 'server' : 'other';
  const facts = {
    traceId: span.spanContext().traceId,
    parentSpanId: span.parentSpanContext?.spanId ?? '',
    kind,
  } as const;
  addDerivedAttributes(attributes, facts, 'exported');
  return attributes;
}

/** The span as stored: the same span with its stored attributes. */
export function stored(span: ReadableSpan): ReadableSpan {
  return Object.assign(Object.create(span) as ReadableSpan, { attributes: storedAttributes(span) });
}
