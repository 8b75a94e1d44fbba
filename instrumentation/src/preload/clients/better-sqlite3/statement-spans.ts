import { basename } from 'node:path';
import {
  type Attributes,
  context,
  diag,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
} from '@opentelemetry/api';
import { fileSpanError } from '../../pipeline/span-errors.js';

/** What of better-sqlite3's Database the spans read. */
export interface SqliteDatabase {
  name?: unknown;
  memory?: unknown;
}

/** What of a native Statement the spans read: its SQL as prepared, and its database. */
export interface SqliteStatement {
  source?: unknown;
  database?: SqliteDatabase;
}

const SYSTEM = 'sqlite';

/** Name and attributes of a statement's spans, computed once per statement (a hot path). */
interface Described {
  name: string;
  attributes: Attributes;
}

const described = new WeakMap<object, Described>();

/** The first keyword, past leading blanks, comments and parentheses: `SELECT`, `INSERT`, `WITH`… */
const FIRST_KEYWORD = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/|\()*([A-Za-z]+)/;

/** The database file's basename (no directories: they name hosts and users), or `:memory:`. */
function namespaceOf(db: SqliteDatabase | undefined): string | undefined {
  if (!db) return undefined;
  if (db.memory === true) return ':memory:';
  if (typeof db.name !== 'string' || db.name === '') return undefined;
  // A `file:` URI's query (mode=ro, cache=shared) is not part of the name.
  const path = db.name.startsWith('file:') ? db.name.slice(5).split('?')[0] : db.name;
  return path ? basename(path) : undefined;
}

function describe(text: unknown, db: SqliteDatabase | undefined): Described {
  const attributes: Attributes = { 'db.system.name': SYSTEM };
  const namespace = namespaceOf(db);
  if (namespace) attributes['db.namespace'] = namespace;
  let operation: string | undefined;
  if (typeof text === 'string') {
    attributes['db.query.text'] = text;
    operation = FIRST_KEYWORD.exec(text)?.[1]?.toUpperCase();
    if (operation) attributes['db.operation.name'] = operation;
  }
  const name = operation ? (namespace ? `${operation} ${namespace}` : operation) : (namespace ?? SYSTEM);
  return { name, attributes };
}

function open(tracer: Tracer, what: Described, startTime?: number): Span {
  return tracer.startSpan(
    what.name,
    { kind: SpanKind.CLIENT, attributes: what.attributes, startTime },
    context.active(),
  );
}

// The functions below never throw: a failure of Faultline's costs a span, never the app's call.

/** A statement call's span, parented on the caller's context; undefined if it could not start. */
export function statementSpan(tracer: Tracer, stmt: SqliteStatement): Span | undefined {
  try {
    let what = described.get(stmt);
    if (what === undefined) {
      what = describe(stmt.source, stmt.database);
      described.set(stmt, what);
    }
    return open(tracer, what);
  } catch (err) {
    diag.warn('faultline: better-sqlite3 span not started', err);
    return undefined;
  }
}

/** The span of SQL handed straight to the database (`exec`, a `prepare` that threw). */
export function textSpan(
  tracer: Tracer,
  text: unknown,
  db: SqliteDatabase,
  startTime?: number,
): Span | undefined {
  try {
    return open(tracer, describe(text, db), startTime);
  } catch (err) {
    diag.warn('faultline: better-sqlite3 span not started', err);
    return undefined;
  }
}

/**
 * The driver's error goes to the span processor first (it classifies the object, not a summary),
 * then the semconv record of it; the span ends.
 */
export function failSpan(span: Span, error: unknown): void {
  try {
    fileSpanError(span, error);
    const err = (error ?? {}) as { message?: unknown; code?: unknown; name?: unknown };
    const message = typeof err.message === 'string' ? err.message : String(error);
    span.recordException(error instanceof Error ? error : message);
    span.setStatus({ code: SpanStatusCode.ERROR, message });
    const code = typeof err.code === 'string' && err.code !== '' ? err.code : undefined;
    span.setAttribute('error.type', code ?? (typeof err.name === 'string' ? err.name : 'Error'));
    span.end();
  } catch (hookErr) {
    diag.warn('faultline: better-sqlite3 span not failed', hookErr);
  }
}

export function endSpan(span: Span): void {
  try {
    span.end();
  } catch (err) {
    diag.warn('faultline: better-sqlite3 span not ended', err);
  }
}
