import {
  addDerivedAttributes,
  DISTRO_NAME,
  DISTRO_NAME_KEY,
  derivedStatusMessage,
} from '@faultline/instrumentation/envelope';
import type { TraceRow } from '@faultline/sql';

/**
 * Puts back what the Faultline preload leaves off the wire because it follows from the span (a
 * correlation id equal to the trace id, a source its semconv attributes imply, a root server span's
 * entry mark, the envelope of a server span that failed by its HTTP status alone, a failure's
 * error.type and status description), so
 * its rows are stored as if every attribute had travelled. Only spans exported under the preload's
 * distro mark: another SDK's span with no correlation id is not the preload's decision, and is
 * classified (or not) as it came.
 */
export function restoreDerived(row: TraceRow): void {
  if (row.ResourceAttributes[DISTRO_NAME_KEY] !== DISTRO_NAME) return;
  const attrs = row.SpanAttributes;
  const kind = row.SpanKind === 'Client' ? 'client' : row.SpanKind === 'Server' ? 'server' : 'other';
  addDerivedAttributes(attrs, { traceId: row.TraceId, parentSpanId: row.ParentSpanId, kind }, 'stored');
  row.StatusMessage = derivedStatusMessage(attrs, row.StatusMessage);
}
