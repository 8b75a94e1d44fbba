import { headerValue } from '@faultline/instrumentation';

/** Ids longer than this are someone else's payload, not an id (as the preload's propagator says). */
const MAX_ID_LENGTH = 128;

/**
 * The request's correlation id as a span of another SDK can carry it: the captured inbound or
 * outbound `x-correlation-id` header, a `correlation_id` baggage entry an SDK's baggage span
 * processor copied to an attribute (`correlation_id`, or `baggage.correlation_id`), else the
 * trace id, which every span of the request shares. Never empty.
 */
export function correlationOf(attrs: Record<string, string>, traceId: string): string {
  const id =
    headerValue(attrs, 'http.request.header.x-correlation-id') ??
    attrs.correlation_id ??
    attrs['baggage.correlation_id'];
  return id !== undefined && id !== '' && id.length <= MAX_ID_LENGTH ? id : traceId;
}
