import { type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { envelopeAttributes } from '../../envelope/envelope-attributes.js';
import type { Envelope } from '../../types.js';
import { holdTransportEnvelope, isTransport } from './call-role.js';
import { correlationIdOfSpan } from './correlation.js';
import { attributesOf } from './span-attributes.js';

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
  const kind = (span as unknown as { kind?: SpanKind }).kind;
  const attrs = envelopeAttributes(envelope, current, {
    correlationId: correlationIdOfSpan(span),
    sourceDerivable: !exportDerived && (kind === SpanKind.CLIENT || kind === SpanKind.SERVER),
  });
  if (exportDerived && current['error.type'] === undefined)
    attrs['error.type'] = envelope.code || envelope.class;
  span.setAttributes(attrs);
  markFailed(span, exportDerived ? envelope.message : '');
}

/**
 * Marks the span failed without writing its envelope: the collector rebuilds an envelope that
 * follows from the span alone (derived-attributes.ts). The status description stays empty, as it
 * is for every envelope under the lean export (the collector restores it from the message).
 */
export function markFailed(span: Span, message = ''): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}
