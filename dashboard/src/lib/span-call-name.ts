/**
 * What a span's row in the request tree names the call by, from the few attributes
 * request_spans.sql reads for it (`call`, each part bounded there): the keys below.
 */
export interface CallFields {
  method?: string;
  /** The URL's path alone: the query does not reach the page (request_spans.sql cuts it). */
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
