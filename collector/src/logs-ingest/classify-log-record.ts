import { attributes, sanitizeEnvelopeAttributes } from '@faultline/instrumentation/envelope';
import type { TraceRow } from '@faultline/sql';
import { classifyRow } from '../classify/classify-row.js';
import { isPreloadSpan } from '../classify/shows-failure.js';
import type { LogRow } from './log-row.js';
import { showsLoggedFailure } from './shows-logged-failure.js';
import { systemOfExceptionType } from './system-of-exception-type.js';

const ENVELOPE_PREFIX = 'faultline.';

/** A record's exception as a span's exception event carries it. */
export interface LoggedException {
  type: string | undefined;
  message: string | undefined;
}

export function loggedExceptionOf(attrs: Record<string, string>): LoggedException | undefined {
  const type = attrs['exception.type'];
  const message = attrs['exception.message'];
  if ((type === undefined || type === '') && (message === undefined || message === '')) return undefined;
  return { type, message };
}

/**
 * Classifies a log record that shows a failure with the collector's span classifier (classifyRow),
 * and writes the envelope it built into the record's attributes (`faultline.class` …,
 * `faultline.classified_by = collector`), as on a span. The record is handed over as the failed span
 * it reports: its attributes (with the attributes of the span it explains, when that span was seen:
 * what was called), its exception as the exception event, its body as the status message. A record
 * that already carries an envelope (the preload's own) is only sanitized. Returns whether the record
 * now carries an envelope.
 */
export function classifyLogRecord(row: LogRow, spanAttrs?: Record<string, string>): boolean {
  const attrs = row.LogAttributes;
  if (isPreloadSpan(attrs)) {
    sanitizeEnvelopeAttributes(attrs);
    return attrs[attributes.ATTR_CLASS] !== undefined;
  }
  if (!showsLoggedFailure(row.SeverityNumber, row.SeverityText, attrs)) return false;
  const span = asFailedSpan(row, spanAttrs);
  let classified: boolean;
  try {
    classified = classifyRow(span);
  } catch {
    return false;
  }
  if (!classified) return false;
  for (const key in span.SpanAttributes) {
    if (key.startsWith(ENVELOPE_PREFIX)) attrs[key] = span.SpanAttributes[key]!;
  }
  return true;
}

/** The failed span a record reports, for the span classifier: nothing of it is stored. */
function asFailedSpan(row: LogRow, spanAttrs: Record<string, string> | undefined): TraceRow {
  const attrs: Record<string, string> = { ...row.LogAttributes };
  // The span's attributes say what was called; its own envelope (a guess) is left out.
  if (spanAttrs) {
    for (const key in spanAttrs) if (!key.startsWith(ENVELOPE_PREFIX)) attrs[key] = spanAttrs[key]!;
  }
  const exception = loggedExceptionOf(row.LogAttributes);
  if (attrs['db.system.name'] === undefined && attrs['db.system'] === undefined) {
    const system = systemOfExceptionType(exception?.type);
    if (system !== undefined) attrs['db.system.name'] = system;
  }
  const event: Record<string, string> = {};
  if (exception?.type) event['exception.type'] = exception.type;
  if (exception?.message) event['exception.message'] = exception.message;
  return {
    Timestamp: row.Timestamp,
    TraceId: row.TraceId,
    SpanId: row.SpanId,
    ParentSpanId: '',
    TraceState: '',
    SpanName: row.EventName,
    SpanKind: 'Internal',
    ServiceName: row.ServiceName,
    ResourceAttributes: row.ResourceAttributes,
    ScopeName: row.ScopeName,
    ScopeVersion: row.ScopeVersion,
    SpanAttributes: attrs,
    Duration: 0,
    StatusCode: 'Error',
    StatusMessage: row.Body,
    'Events.Timestamp': exception ? [row.Timestamp] : [],
    'Events.Name': exception ? ['exception'] : [],
    'Events.Attributes': exception ? [event] : [],
    'Links.TraceId': [],
    'Links.SpanId': [],
    'Links.TraceState': [],
    'Links.Attributes': [],
  };
}
