import { idStr, num, panelQuery, str } from './run-panel-query';

export interface RequestSpan {
  startNs: number;
  durationNs: number;
  service: string;
  span: string;
  kind: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  status: string;
  statusMessage: string;
  correlationId: string;
  envelope: {
    class: string;
    source: string;
    code: string;
    message: string;
    retryable: boolean;
    retry_after: number | null;
    correlation_id: string;
  } | null;
  attempt: number;
  misroutedRetry: boolean;
  /** Redacted and size-capped (by the preload, or by the collector for spans that carry their own). */
  raw: string;
  /** Full lengths of `envelope.message` and `raw` in characters: more than shown when cut. */
  messageLength: number;
  rawLength: number;
}

/** Spans one page shows; request_spans.sql returns one more so the page can say there are more. */
export const REQUEST_MAX_SPANS = 500;
/** Characters of a text shown (request_spans.sql cuts at the same length). */
export const SHOWN_TEXT_CHARS = 2000;

/**
 * Any id a span can carry (it is span data, so it may hold markup or quotes, and is only ever a
 * query parameter and escaped text here), bounded, without control characters.
 */
export const REQUEST_ID_RE = /^[^\p{Cc}]{1,1024}$/u;

export async function loadRequestSpans(id: string): Promise<RequestSpan[]> {
  const rows = await panelQuery('request_spans', { id });
  return rows.map((r) => {
    const cls = str(r.class);
    const retryAfter = str(r.retry_after);
    return {
      startNs: num(r.start_ns),
      durationNs: num(r.duration_ns),
      service: str(r.service),
      span: str(r.span),
      kind: str(r.kind),
      traceId: idStr(r.trace_id),
      spanId: idStr(r.span_id),
      parentSpanId: idStr(r.parent_span_id),
      status: str(r.status),
      statusMessage: str(r.status_message),
      correlationId: str(r.correlation_id),
      envelope: cls
        ? {
            class: cls,
            source: str(r.source),
            code: str(r.code),
            message: str(r.message),
            retryable: str(r.retryable) === 'true',
            retry_after: retryAfter === '' ? null : Number(retryAfter),
            correlation_id: str(r.correlation_id),
          }
        : null,
      attempt: Math.max(1, num(r.attempt)),
      misroutedRetry: str(r.misrouted_retry) === 'true',
      raw: str(r.raw),
      messageLength: num(r.message_length),
      rawLength: num(r.raw_length),
    };
  });
}
