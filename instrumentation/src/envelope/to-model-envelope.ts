import type { Envelope, ModelEnvelope } from '../types.js';
import { allowedRetryAfter } from './allowed-retry-after.js';

/**
 * The seven fields a model or agent loop acts on: the envelope without `raw`. Tool results
 * compete for a model's attention, and `raw` is for people doing offline inspection.
 */
export function toModelEnvelope(envelope: Envelope): ModelEnvelope {
  if (envelope === null || typeof envelope !== 'object') {
    throw new TypeError(
      `toModelEnvelope: expected an envelope from classifyHttpResponse/classifyError/createEnvelope; got ${envelope === null ? 'null' : typeof envelope}`,
    );
  }
  return {
    class: envelope.class,
    source: envelope.source,
    code: envelope.code,
    message: envelope.message,
    retryable: envelope.retryable,
    retry_after: allowedRetryAfter(envelope.retryable, envelope.retry_after),
    correlation_id: envelope.correlation_id ?? '',
  };
}
