import { randomBytes } from 'node:crypto';
import type { TraceRow } from '../../src/types.js';

/** Unix seconds with a 9-digit fraction, the writer's DateTime64(9) text form. */
export function dateTime64(ms: number, extraNanos = 0): string {
  const sec = Math.floor(ms / 1000);
  const nanos = (ms - sec * 1000) * 1_000_000 + extraNanos;
  return `${sec}.${String(nanos).padStart(9, '0')}`;
}

export function hexId(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** A realistic exporter-shaped span; override any column. */
export function makeRow(overrides: Partial<TraceRow> = {}): TraceRow {
  return {
    Timestamp: dateTime64(Date.UTC(2026, 10, 29, 12, 0, 0)),
    TraceId: hexId(16),
    SpanId: hexId(8),
    ParentSpanId: '',
    TraceState: '',
    SpanName: 'GET /checkout',
    SpanKind: 'Server',
    ServiceName: 'checkout',
    ResourceAttributes: { 'service.name': 'checkout', 'host.name': 'web-1' },
    ScopeName: '@opentelemetry/instrumentation-http',
    ScopeVersion: '0.223.0',
    SpanAttributes: { 'http.request.method': 'GET', 'http.response.status_code': '200' },
    Duration: 1_500_000,
    StatusCode: 'Unset',
    StatusMessage: '',
    'Events.Timestamp': [],
    'Events.Name': [],
    'Events.Attributes': [],
    'Links.TraceId': [],
    'Links.SpanId': [],
    'Links.TraceState': [],
    'Links.Attributes': [],
    ...overrides,
  };
}

/** A CLIENT span carrying a classified failure envelope, as the preload writes it. */
export function makeFailureRow(
  envelope: Partial<
    Record<
      | 'class'
      | 'source'
      | 'code'
      | 'message'
      | 'retryable'
      | 'retry_after'
      | 'correlation_id'
      | 'raw'
      | 'attempt'
      | 'misrouted_retry',
      string
    >
  >,
  overrides: Partial<TraceRow> = {},
): TraceRow {
  const attrs: Record<string, string> = { 'http.request.method': 'POST', 'server.address': 'api.stripe.com' };
  for (const [k, v] of Object.entries(envelope)) if (v !== undefined) attrs[`faultline.${k}`] = v;
  return makeRow({
    SpanName: 'POST',
    SpanKind: 'Client',
    StatusCode: 'Error',
    StatusMessage: envelope.message ?? '',
    SpanAttributes: attrs,
    ...overrides,
  });
}
