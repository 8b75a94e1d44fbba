import {
  type Attributes,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
} from '@opentelemetry/api';
import { fileSpanError } from '../../pipeline/span-errors.js';

/** What of postgres.js's `Query` (src/query.js) the spans read; all of it is the driver's own state. */
export interface PgQuery {
  executed?: boolean;
  /** The template's strings (tagged call) or `[text]` (`sql.unsafe`); empty for `sql.file` and batches. */
  strings?: readonly string[];
  /** Set by the pool once the query is built: the text with `$n` placeholders, never the values. */
  built?: { text?: unknown } | null;
  /** `sql.batch([...])`: the batched queries. */
  parts?: readonly PgQuery[];
  handler?: { options?: PgOptions };
  /** The connection that ran the query, once one did. */
  connection?: { host?: unknown; port?: unknown };
}

/** The parsed options postgres() keeps on every query's handler. The password is never read. */
interface PgOptions {
  database?: unknown;
  host?: readonly unknown[];
  port?: readonly unknown[];
  path?: unknown;
}

const SYSTEM = 'postgresql';
const ATTR_SYSTEM = 'db.system.name';
const ATTR_NAMESPACE = 'db.namespace';
const ATTR_OPERATION = 'db.operation.name';
const ATTR_TEXT = 'db.query.text';
const ATTR_BATCH_SIZE = 'db.operation.batch.size';
const ATTR_STATUS = 'db.response.status_code';
const ATTR_ADDRESS = 'server.address';
const ATTR_PORT = 'server.port';

/** The open span of each running query; weak, and no new field on the driver's objects. */
const spans = new WeakMap<object, Span>();
/** Queries whose text was unknown at start (`sql.file`): named once it was read. */
const unnamed = new WeakSet<object>();

/** The first keyword, past leading blanks, comments and parentheses: `SELECT`, `INSERT`, `WITH`… */
const FIRST_KEYWORD = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/|\()*([A-Za-z]+)/;

export function operationOf(text: string | undefined): string | undefined {
  if (!text) return undefined;
  return FIRST_KEYWORD.exec(text)?.[1]?.toUpperCase();
}

export function spanNameOf(operation: string | undefined, namespace: string | undefined): string {
  if (operation) return namespace ? `${operation} ${namespace}` : operation;
  return namespace || SYSTEM;
}

/**
 * Opens the query's span when it starts running (its first `then`/`execute`), parented on the
 * caller's active context. Only the server and database are known yet: the text is built later by
 * the pool (after the types load), and building it here would cache it too early.
 */
export function startQuerySpan(tracer: Tracer, q: PgQuery): void {
  const options = q.handler?.options;
  const namespace = stringOf(options?.database);
  const operation = operationOf(q.strings?.[0]);
  const attributes: Attributes = { [ATTR_SYSTEM]: SYSTEM };
  if (namespace) attributes[ATTR_NAMESPACE] = namespace;
  if (operation) attributes[ATTR_OPERATION] = operation;
  const socket = stringOf(options?.path);
  const host = socket ?? stringOf(options?.host?.[0]);
  if (host) attributes[ATTR_ADDRESS] = host;
  const port = socket ? undefined : Number(options?.port?.[0]);
  if (port) attributes[ATTR_PORT] = port;
  const span = tracer.startSpan(
    spanNameOf(operation, namespace),
    { kind: SpanKind.CLIENT, attributes },
    context.active(),
  );
  spans.set(q, span);
  if (!operation && !q.parts) unnamed.add(q);
}

/** Ends the query's span (once: a cursor's resolve after a reject finds none). */
export function endQuerySpan(q: PgQuery, error: unknown, failed: boolean): void {
  const span = spans.get(q);
  if (span === undefined) return;
  spans.delete(q);
  // Whatever of the description fails, the span still records the failure and ends.
  try {
    describeRun(span, q);
  } finally {
    try {
      if (failed) failSpan(span, error);
    } finally {
      span.end();
    }
  }
}

/** What only the run knows: the built text, the operation of a file or batch, the host it reached. */
function describeRun(span: Span, q: PgQuery): void {
  const options = q.handler?.options;
  if (q.parts && q.parts.length > 0) describeBatch(span, q.parts, stringOf(options?.database));
  else {
    const text = textOf(q);
    if (text !== undefined) span.setAttribute(ATTR_TEXT, text);
    // sql.file(): the text was read from disk after the span began.
    const operation = unnamed.delete(q) ? operationOf(text) : undefined;
    if (operation) {
      span.setAttribute(ATTR_OPERATION, operation);
      span.updateName(spanNameOf(operation, stringOf(options?.database)));
    }
  }
  // Several hosts given: the connection tells which one answered.
  if ((options?.host?.length ?? 0) > 1) {
    const host = stringOf(q.connection?.host);
    if (host) span.setAttribute(ATTR_ADDRESS, host);
    const port = Number(q.connection?.port);
    if (port) span.setAttribute(ATTR_PORT, port);
  }
}

/** Semconv's batch: the distinct texts joined by `; `, `BATCH <op>` when they share one. */
function describeBatch(span: Span, parts: readonly PgQuery[], namespace: string | undefined): void {
  const texts = [...new Set(parts.map(textOf).filter((t): t is string => t !== undefined))];
  if (texts.length > 0) span.setAttribute(ATTR_TEXT, texts.join('; '));
  const operations = new Set(texts.map(operationOf));
  const single = operations.size === 1 ? [...operations][0] : undefined;
  const operation = single ? `BATCH ${single}` : 'BATCH';
  span.setAttributes({ [ATTR_OPERATION]: operation, [ATTR_BATCH_SIZE]: parts.length });
  span.updateName(spanNameOf(operation, namespace));
}

function textOf(q: PgQuery): string | undefined {
  const built = q.built?.text;
  if (typeof built === 'string') return built;
  // Not built (the build itself failed, or the file was never read): the strings as written,
  // each value's place shown as its placeholder.
  const strings = q.strings;
  if (!strings || strings.length === 0) return undefined;
  let text = strings[0] ?? '';
  for (let i = 1; i < strings.length; i++) text += `$${i}${strings[i]}`;
  return text;
}

/**
 * The driver's error goes to the span processor first (it classifies the object, not a summary),
 * then the semconv record of it.
 */
function failSpan(span: Span, error: unknown): void {
  fileSpanError(span, error);
  const err = (error ?? {}) as { message?: unknown; code?: unknown; name?: unknown };
  const message = typeof err.message === 'string' ? err.message : String(error);
  span.recordException(error instanceof Error ? error : message);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  const code = stringOf(err.code);
  span.setAttribute('error.type', code ?? stringOf(err.name) ?? 'Error');
  // A server error's SQLSTATE is the response status semconv asks for.
  if (code && err.name === 'PostgresError') span.setAttribute(ATTR_STATUS, code);
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
