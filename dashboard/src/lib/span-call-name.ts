import { countingRules } from '@faultline/instrumentation/envelope';

/**
 * What a span's row in the request tree names the call by, each part bounded: built by
 * callFieldsOf from the raw attributes request_spans.sql returns for it (`call_attributes`).
 */
export interface CallFields {
  method?: string;
  /** The URL's path alone: its query, fragment, host and credentials never reach the page. */
  path?: string;
  route?: string;
  'db.summary'?: string;
  'db.operation'?: string;
  'db.collection'?: string;
  /** The statement's first 300 characters: only its first words are ever shown. */
  'db.statement'?: string;
  'rpc.service'?: string;
  'rpc.method'?: string;
  'messaging.operation'?: string;
  'messaging.destination'?: string;
  tool?: string;
  dependency?: string;
}

/**
 * The attributes callFieldsOf reads: request_spans.sql returns these keys and no other
 * (`call_attributes`, each value cut to 2,000 characters), so the two lists must stay one
 * (dashboard/test/call-fields.test.ts checks it).
 */
export const CALL_ATTRIBUTE_KEYS = [
  // The call's name.
  'http.request.method',
  'http.method',
  'url.path',
  'http.target',
  'url.full',
  'http.url',
  'http.route',
  'db.query.summary',
  'db.operation.name',
  'db.operation',
  'db.collection.name',
  'db.sql.table',
  'db.mongodb.collection',
  'db.query.text',
  'db.statement',
  'rpc.service',
  'rpc.method',
  'messaging.operation.name',
  'messaging.operation',
  'messaging.destination.temporary',
  'messaging.destination.name',
  'messaging.destination.template',
  'gen_ai.tool.name',
  'ai.toolCall.name',
  // What it calls (countingRules.dependencyOf, beside url.full, http.url, rpc.* and messaging.*).
  'peer.service',
  'db.system.name',
  'db.system',
  'db.namespace',
  'db.name',
  'rpc.system',
  'messaging.system',
  'url.template',
  'server.address',
  'server.port',
  'net.peer.name',
] as const;

/** Raw attribute values by key, as the query's map returns them ('' and absent alike). */
export type CallAttributes = Readonly<Record<string, string | undefined>>;

/** ClickHouse's substringUTF8(s, 1, n): the first n code points. */
function firstChars(s: string, n: number): string {
  // A UTF-16 length within n is within n code points too.
  if (s.length <= n) return s;
  let end = 0;
  for (let count = 0; count < n && end < s.length; count++) {
    const c = s.charCodeAt(end);
    end += c >= 0xd800 && c <= 0xdbff && end + 1 < s.length ? 2 : 1;
  }
  return s.slice(0, end);
}

/** Everything before the first '?' or '#': a URL's query string and fragment cut. */
function beforeQuery(s: string): string {
  const at = s.search(/[?#]/);
  return at < 0 ? s : s.slice(0, at);
}

/**
 * The path of a URL or request target, as ClickHouse's path() reads it ('/a/b' of '/a/b?x=1', of
 * 'http://user:pw@host:8080/a/b?x=1#f' and of 'host/a/b'), without its query string or fragment.
 * Where path() would start the path inside the query string or fragment ('http://h?next=/account',
 * 'x#y/z'), it is '' here: what follows a '?' or '#' never names the call.
 */
export function urlPathOf(url: string): string {
  const head = beforeQuery(url);
  let start = head.indexOf('/');
  if (start < 0) return '';
  // '//' opens an authority (the host, and any credentials): the path starts after it.
  if (head.charCodeAt(start + 1) === 0x2f) {
    start = head.indexOf('/', start + 2);
    if (start < 0) return '';
  }
  return head.slice(start);
}

/**
 * The call's fields from its raw attributes (request_spans.sql's `call_attributes`), by the rules
 * that SQL once applied itself: each the first non-empty of its alternatives and bounded (method
 * 20 characters, path and route 500, statement 300, operations 100, the rest 200), the path alone
 * of url.path, http.target, url.full or http.url, '(temporary)' for a temporary messaging
 * destination, and the dependency as the rollups name it (countingRules.callDependencyOf, the
 * twin of faultline_call_dependency). Only non-empty fields are set. `kind` as stored
 * ('SPAN_KIND_CLIENT' or 'Client').
 */
export function callFieldsOf(kind: string, attrs: CallAttributes): CallFields {
  const a = (key: string): string => attrs[key] ?? '';
  const first = (n: number, ...keys: string[]): string => {
    for (const key of keys) if (a(key) !== '') return firstChars(a(key), n);
    return '';
  };
  // The first of these attributes that is set, even where its path is '' (as the SQL's multiIf).
  const pathFrom = ['url.path', 'http.target', 'url.full'].find((key) => a(key) !== '') ?? 'http.url';
  const rawPath = pathFrom === 'url.path' ? a(pathFrom) : urlPathOf(a(pathFrom));
  const fields: Required<CallFields> = {
    method: first(20, 'http.request.method', 'http.method'),
    path: firstChars(beforeQuery(rawPath), 500),
    route: first(500, 'http.route'),
    'db.summary': first(200, 'db.query.summary'),
    'db.operation': first(100, 'db.operation.name', 'db.operation'),
    'db.collection': first(200, 'db.collection.name', 'db.sql.table', 'db.mongodb.collection'),
    'db.statement': first(300, 'db.query.text', 'db.statement'),
    'rpc.service': first(200, 'rpc.service'),
    'rpc.method': first(200, 'rpc.method'),
    'messaging.operation': first(100, 'messaging.operation.name', 'messaging.operation'),
    'messaging.destination':
      a('messaging.destination.temporary') === 'true'
        ? '(temporary)'
        : first(200, 'messaging.destination.name', 'messaging.destination.template'),
    tool: first(200, 'gen_ai.tool.name', 'ai.toolCall.name'),
    dependency: countingRules.callDependencyOf(kind, attrs),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '')) as CallFields;
}

/** A label's longest shown form; the row truncates it further to its width (full text on hover). */
export const CALL_NAME_CHARS = 300;

const SQL_VERB =
  /^\s*(?:\/\*[\s\S]*?\*\/\s*)?(select|insert|update|delete|upsert|merge|replace|create|alter|drop|truncate|call|exec|execute)\b/i;
/** The table a statement acts on: after FROM / INTO / UPDATE / JOIN / TABLE, bare, quoted or qualified. */
const SQL_TARGET =
  /\b(?:from|into|update|join|table)\s+((?:[A-Za-z_][\w$]*|"[^"]{1,128}"|`[^`]{1,128}`|\[[^\]]{1,128}\])(?:\.(?:[A-Za-z_][\w$]*|"[^"]{1,128}"|`[^`]{1,128}`|\[[^\]]{1,128}\])){0,2})/i;
/** A leading keyword of a statement that is not SQL (Redis GET, Mongo find): letters only. */
const FIRST_WORD = /^\s*([A-Za-z][A-Za-z_.-]{0,40})(?=\s|$)/;

/**
 * A statement's summary as OpenTelemetry's db.query.summary has it ("INSERT orders",
 * "SELECT orders"): the operation and the table it acts on, or only its first keyword. Never a
 * literal, a key or anything after them: a statement's values can be secrets.
 */
export function statementSummary(statement: string): string {
  // Literals out first, so that a quoted "from x" is never read as the table.
  const bare = statement.replace(/'(?:[^']|'')*'?/g, '?').replace(/\$\$[\s\S]*?(?:\$\$|$)/g, '?');
  const verb = SQL_VERB.exec(bare);
  if (verb) {
    const target = SQL_TARGET.exec(bare.slice(verb.index + verb[0].length - verb[1]!.length));
    return target ? `${verb[1]!.toUpperCase()} ${target[1]}` : verb[1]!.toUpperCase();
  }
  return FIRST_WORD.exec(bare)?.[1] ?? '';
}

const join = (...parts: (string | undefined)[]) => parts.filter((p) => p).join(' ');

/** The HTTP part: method and path (a SERVER span by its route when it has one). */
function httpName(kind: string, span: string, f: CallFields): string {
  const method = f.method?.toUpperCase() === '_OTHER' ? '' : (f.method ?? '');
  const where = kind === 'Server' ? f.route || f.path : f.path || f.route;
  if (where) return join(method, where);
  // No path: the span name says more than the method alone ("GET" → "GET cache").
  return span.trim() !== '' && span !== method ? span : method;
}

/**
 * The call a span made (or served), as its row names it: a GenAI tool, the HTTP method and path,
 * the statement's summary, the RPC service/method, the messaging operation and destination,
 * else the span's own name. `kind` is the normalized kind ('Client', 'Server', …).
 */
export function callName(kind: string, span: string, f: CallFields): string {
  let name: string;
  if (f.tool) name = `tool ${f.tool}`;
  else if (f.method || f.path) name = httpName(kind, span, f);
  else if (f['db.summary'] || f['db.operation'] || f['db.statement'])
    name =
      f['db.summary'] ||
      (f['db.operation'] ? join(f['db.operation'], f['db.collection']) : '') ||
      statementSummary(f['db.statement'] ?? '') ||
      span;
  else if (f['rpc.service'] || f['rpc.method'])
    name = [f['rpc.service'], f['rpc.method']].filter((p) => p).join('/');
  else if (f['messaging.destination'])
    name = join(f['messaging.operation'] || 'message', f['messaging.destination']);
  else name = span;
  return name.replace(/\s+/g, ' ').trim() || span;
}

/** 'SPAN_KIND_CLIENT' and 'Client' alike (as faultline_span_kind reads them). */
export function spanKindName(kind: string): string {
  if (!kind.startsWith('SPAN_KIND_')) return kind;
  const k = kind.slice('SPAN_KIND_'.length).toLowerCase();
  return k.charAt(0).toUpperCase() + k.slice(1);
}
