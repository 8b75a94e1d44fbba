import type { TraceRow } from '@faultline/sql';
import { dateTime64, hexId, makeFailureRow, makeRow } from '../../../sql/test/support/trace-row-fixture.js';

export const MIN = 60_000;

/** One successful outbound call of `service` at `ms`. */
export function okCall(service: string, ms: number): TraceRow {
  return makeRow({
    Timestamp: dateTime64(ms),
    ServiceName: service,
    SpanKind: 'Client',
    SpanId: hexId(8),
    TraceId: hexId(16),
    SpanName: 'call',
    SpanAttributes: { 'faultline.source': 'sdk' },
  });
}

/** One outbound call of `service` at `ms` that failed first-hand with the given class, source and code. */
export function failedCall(service: string, ms: number, cls: string, source: string, code: string): TraceRow {
  return makeFailureRow(
    { class: cls, source, code, message: code, retryable: 'true' },
    { Timestamp: dateTime64(ms), ServiceName: service, SpanId: hexId(8), TraceId: hexId(16) },
  );
}

/**
 * `ok` successful and `failed` failed calls in the minute starting at minuteMs, spread over its
 * first half (failures after the successes).
 */
export function minuteOfCalls(
  service: string,
  minuteMs: number,
  ok: number,
  failed = 0,
  failure: [cls: string, source: string, code: string] = ['transient', 'http', '503'],
): TraceRow[] {
  const rows: TraceRow[] = [];
  for (let i = 0; i < ok; i++) rows.push(okCall(service, minuteMs + i * 20));
  for (let i = 0; i < failed; i++) rows.push(failedCall(service, minuteMs + 20_000 + i * 20, ...failure));
  return rows;
}
