import type { RequestSpan } from './request-data';
import { idStr, num, panelQuery, str } from './run-panel-query';

/** One log record of a request (request_logs.sql), shown under its span. */
export interface RequestLogRecord {
  /** Nanoseconds since the epoch, as text (a double cannot hold them). */
  timeNs: string;
  traceId: string;
  /** '' for a record logged outside a span. */
  spanId: string;
  /** Shown text (visibleText), as every span text a page shows. */
  service: string;
  severityText: string;
  severityNumber: number;
  body: string;
  exceptionType: string;
  exceptionMessage: string;
  /** The envelope's class and code when the record shows a failure, else ''. */
  class: string;
  code: string;
}

/** Records one page shows; request_logs.sql returns one more so the page can say there are more. */
export const REQUEST_MAX_LOGS = 500;
/** How far around the spans' window a record of the request is looked for. */
const MARGIN_S = 60;
/** Without spans, how far back a record of the request is looked for. */
const LOOKBACK_S = 7 * 86_400;

/**
 * The request's log records (by trace id or correlation id) around its spans' window, or over the
 * last seven days when no span of it was found (a request only log records show).
 */
export async function loadRequestLogs(id: string, spans: RequestSpan[]): Promise<RequestLogRecord[]> {
  const nowS = Math.floor(Date.now() / 1000);
  const from =
    spans.length > 0
      ? Math.floor(Math.min(...spans.map((s) => s.startNs)) / 1e9) - MARGIN_S
      : nowS - LOOKBACK_S;
  const to =
    spans.length > 0
      ? Math.ceil(Math.max(...spans.map((s) => s.startNs + s.durationNs)) / 1e9) + MARGIN_S
      : nowS + MARGIN_S;
  const rows = await panelQuery('request_logs', { id, from, to });
  return rows.map(
    (r): RequestLogRecord => ({
      timeNs: idStr(r.time_ns),
      traceId: idStr(r.trace_id),
      spanId: idStr(r.span_id),
      service: str(r.service),
      severityText: str(r.severity_text),
      severityNumber: num(r.severity_number),
      body: str(r.body),
      exceptionType: str(r.exception_type),
      exceptionMessage: str(r.exception_message),
      class: idStr(r.class),
      code: str(r.code),
    }),
  );
}

/** The records by the span they were logged in ('' for none), each list oldest first. */
export function logsBySpan(records: readonly RequestLogRecord[]): Map<string, RequestLogRecord[]> {
  const out = new Map<string, RequestLogRecord[]>();
  for (const r of records.slice(0, REQUEST_MAX_LOGS)) {
    const list = out.get(r.spanId);
    if (list) list.push(r);
    else out.set(r.spanId, [r]);
  }
  return out;
}
