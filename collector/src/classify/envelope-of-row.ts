import { type Envelope, envelopeOfFailedSpan } from '@faultline/instrumentation';
import type { TraceRow } from '@faultline/sql';

/**
 * The envelope the preload would have built for a failed span that arrived without one: the
 * reading both ends share (instrumentation/src/span-fields), fed the stored row's attributes, its
 * exception event and status message. Call only for spans that show a failure.
 */
export function envelopeOfRow(row: TraceRow, correlationId: string): Envelope {
  const at = row['Events.Name'].indexOf('exception');
  const event = at >= 0 ? row['Events.Attributes'][at] : undefined;
  return envelopeOfFailedSpan(
    {
      attrs: row.SpanAttributes,
      exceptionType: event?.['exception.type'],
      exceptionMessage: event?.['exception.message'],
      statusMessage: row.StatusMessage,
    },
    correlationId,
  );
}
