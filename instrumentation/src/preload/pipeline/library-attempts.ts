import type { Attributes, Span } from '@opentelemetry/api';
import { ATTR_ATTEMPTS, ATTR_CLASS, ATTR_CODE, ATTR_SOURCE } from '../../envelope/attribute-names.js';
import { sourceOf } from '../../envelope/span-source.js';
import { isGenericCode, type TransportTally } from './call-role.js';
import { correlationIdOfSpan } from './correlation.js';
import { stampPrevious } from './repeat-attempts.js';
import { setEnvelope } from './span-envelope.js';

/**
 * An operation span whose library retried internally (the AWS SDK's own retry loop): the attempt
 * count (`$metadata.attempts` from the AWS hooks, else its transport requests counted), the failed
 * attempt before the last one as faultline.previous_*, and, when its own envelope is missing or only
 * generic (a bare status), the final transport request's classification (the body's
 * ThrottlingException), under the operation's own source.
 */
export function foldTransports(span: Span, attrs: Attributes, tally: TransportTally): void {
  const reported = attrs[ATTR_ATTEMPTS];
  const attempts = typeof reported === 'number' && reported > 1 ? reported : tally.count;
  if (attempts > 1) {
    if (reported === undefined) span.setAttribute(ATTR_ATTEMPTS, attempts);
    // The library retries only after a failure: the last one before the final attempt.
    const previous = tally.lastFailed ? tally.prior : tally.last;
    if (previous) stampPrevious(span, previous);
  }
  const final = tally.lastFailed ? tally.last : undefined;
  if (final === undefined) return;
  const own = attrs[ATTR_CLASS] === undefined ? undefined : String(attrs[ATTR_CODE] ?? '');
  if (own !== undefined && !(isGenericCode(own) && !isGenericCode(final.code))) return;
  setEnvelope(span, {
    ...final,
    source: String(attrs[ATTR_SOURCE] ?? sourceOf(attrs) ?? final.source),
    correlation_id: correlationIdOfSpan(span),
  });
}
