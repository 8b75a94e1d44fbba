import { grpcStatusOf } from '@faultline/instrumentation';
import { attributes, failingHttpStatusOf } from '@faultline/instrumentation/envelope';
import type { TraceRow } from '@faultline/sql';

/**
 * Attributes that say the preload already decided about this span: an envelope (left exactly as
 * it is), or the marks it puts on spans it chose not to classify (a transport request whose
 * envelope went to its operation, a checkout, a span of a request it tracked).
 */
const PRELOAD_MARKS = [
  attributes.ATTR_CLASS,
  attributes.ATTR_CALL_ROLE,
  attributes.ATTR_CORRELATION_ID,
  attributes.ATTR_ENTRY,
] as const;

export function isPreloadSpan(attrs: Record<string, string>): boolean {
  for (const key of PRELOAD_MARKS) if (attrs[key] !== undefined) return true;
  return false;
}

/**
 * Whether a span without an envelope shows a failure: status ERROR, a failing HTTP status (4xx/5xx,
 * on a client and a server alike: failingHttpStatusOf, the rule the preload applies to a server
 * span, so a service that answered 429 failed that request under stock OpenTelemetry too), a gRPC
 * status other than OK, `error.type`, or an `exception` event. Cheap checks first: this runs for
 * every span at ingest, and almost every span succeeded. Status OK is final (the trace API spec:
 * set by the application or operator who validated the outcome), whatever else the span recorded.
 */
export function showsFailure(row: TraceRow): boolean {
  const status = row.StatusCode;
  if (status === 'Error' || status === 'STATUS_CODE_ERROR') return true;
  if (status === 'Ok' || status === 'STATUS_CODE_OK') return false;
  const attrs = row.SpanAttributes;
  if (attrs['error.type'] !== undefined && attrs['error.type'] !== '') return true;
  if (failingHttpStatusOf(attrs) !== undefined) return true;
  const grpc = grpcStatusOf(attrs);
  if (grpc !== undefined && grpc !== 0) return true;
  return row['Events.Name'].includes('exception');
}
