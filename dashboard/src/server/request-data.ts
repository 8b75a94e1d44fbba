import { dependencyEndpoint } from '../lib/dependency-endpoint';
import { shownText } from '../lib/shown-value';
import {
  CALL_NAME_CHARS,
  type CallAttributes,
  callFieldsOf,
  callName,
  spanKindName,
} from '../lib/span-call-name';
import { idStr, num, panelQuery, str } from './run-panel-query';

export interface RequestSpan {
  startNs: number;
  durationNs: number;
  service: string;
  span: string;
  /** Normalized ('Client', 'Server', 'Internal', 'Producer', 'Consumer'). */
  kind: string;
  /**
   * What the row names the call by (span-call-name.ts): method and path, statement summary, RPC
   * method, messaging destination or tool, else the span name; redacted and shown as sent
   * (visibleText), at most CALL_NAME_CHARS.
   */
  call: string;
  /**
   * What the call calls as the rollups name it (callDependencyOf, the twin of
   * faultline_call_dependency), shown text; '' for none.
   */
  dependency: string;
  /** The same, exact: for lookups by it (request_callees). */
  dependencyKey: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  status: string;
  statusMessage: string;
  /** Shown text (visibleText); `correlationKey` is the exact value, for links. */
  correlationId: string;
  correlationKey: string;
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
  /** Carries an envelope and is a failure row of its own (not a transport request or checkout). */
  failed: boolean;
  /** A failure where it happened, by first_hand_failures (sql/schema/030); false for an echo. */
  firstHand: boolean;
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

/**
 * The query's `call_attributes` map as text: raw span attributes (a URL with its query string and
 * credentials among them), read only by callFieldsOf, whose fields are all that leaves here.
 */
function callAttributes(value: unknown): CallAttributes {
  if (value === null || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, idStr(v)]));
}

/** Redacted (a path can carry a token) and made visible, as every span text a page shows. */
function shownCall(text: string): string {
  return shownText(text, text.length, CALL_NAME_CHARS).text;
}

export async function loadRequestSpans(id: string): Promise<RequestSpan[]> {
  const rows = await panelQuery('request_spans', { id });
  const spans = rows.map((r): RequestSpan => {
    const cls = str(r.class);
    const retryAfter = str(r.retry_after);
    const kind = spanKindName(idStr(r.kind));
    const fields = callFieldsOf(kind, callAttributes(r.call_attributes));
    return {
      startNs: num(r.start_ns),
      durationNs: num(r.duration_ns),
      service: str(r.service),
      span: str(r.span),
      kind: str(kind),
      call: shownCall(callName(kind, idStr(r.span), fields)),
      dependency: shownCall(fields.dependency ?? ''),
      dependencyKey: fields.dependency ?? '',
      traceId: idStr(r.trace_id),
      spanId: idStr(r.span_id),
      parentSpanId: idStr(r.parent_span_id),
      status: str(r.status),
      statusMessage: str(r.status_message),
      correlationId: str(r.correlation_id),
      correlationKey: idStr(r.correlation_id),
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
      failed: cls !== '' && str(r.call_role) === '',
      firstHand: false,
    };
  });
  if (spans.some((s) => s.failed)) {
    // A second query keeps the first-hand rule in its one home (the view, sql/schema/030): the
    // view's window is a parameter, and ClickHouse does not take it from request_spans' subqueries.
    const from = Math.floor(Math.min(...spans.map((s) => s.startNs)) / 1e9);
    const to = Math.ceil(Math.max(...spans.map((s) => s.startNs + s.durationNs)) / 1e9) + 1;
    const firstHand = new Set(
      (await panelQuery('request_first_hand', { id, from, to })).map(
        (r) => `${idStr(r.trace_id)}/${idStr(r.span_id)}`,
      ),
    );
    for (const s of spans) s.firstHand = s.failed && firstHand.has(`${s.traceId}/${s.spanId}`);
  }
  return spans;
}

/** A service known to answer where a call of the request went, though no span of it is under the call. */
export interface MissingCallee {
  /** Shown text (visibleText). */
  callee: string;
  /** The share of the callee's traffic its own sampling dropped (0 when it keeps all). */
  unsampled: number;
}

/** Calls looked up per request at most: a page stays bounded whatever one request holds. */
const MAX_LOOKUPS = 100;

/**
 * The outbound calls of the request that no SERVER span answered, by the service that answers at
 * their endpoint (request_callees): where one does, the call's callee span is missing (sampled out,
 * or lost), and a failure counted first-hand on the call may be that callee's own.
 */
export async function loadMissingCallees(spans: RequestSpan[]): Promise<Map<string, MissingCallee>> {
  const answered = new Set(spans.filter((s) => s.kind === 'Server').map((s) => s.parentSpanId));
  const endpoints = [
    ...new Set(
      spans
        .filter((s) => (s.kind === 'Client' || s.kind === 'Producer') && !answered.has(s.spanId))
        .map((s) => dependencyEndpoint(s.dependencyKey))
        .filter((e) => e !== ''),
    ),
  ].slice(0, MAX_LOOKUPS);
  if (endpoints.length === 0) return new Map();
  // The hour around the request: service_endpoints is kept per hour.
  const from = Math.floor(Math.min(...spans.map((s) => s.startNs)) / 1e9) - 3600;
  const to = Math.ceil(Math.max(...spans.map((s) => s.startNs + s.durationNs)) / 1e9) + 3600;
  let rows: Record<string, unknown>[];
  try {
    rows = await panelQuery('request_callees', { from, to, endpoints });
  } catch (err) {
    // A note only: without it the tree still names each call by what its caller dialed.
    console.error('faultline: missing callee lookup unavailable:', err);
    return new Map();
  }
  return new Map(
    rows.map((r) => [
      idStr(r.endpoint),
      { callee: shownCall(idStr(r.callee)), unsampled: num(r.callee_unsampled) },
    ]),
  );
}
