import { MAX_STATEMENT_BYTES, STATEMENT_KEYWORDS } from './console-allowlist.js';
import type { ConsoleConnection } from './console-connection.js';
import { refuse } from './policy-violation.js';

/** One token of ClickHouse's lexer (`tokenizeQuery`): its type and the bytes it covers. */
export interface SqlToken {
  type: string;
  text: string;
  /** Byte offsets into the statement's UTF-8 text. */
  begin: number;
  end: number;
}

/** A console request's text cut to its one statement. */
export interface LexedStatement {
  /** From the start to the end of its last token: no trailing semicolon, comment or blank. */
  text: string;
  /** Its tokens without whitespace and comments. */
  words: SqlToken[];
  /** The first keyword, upper-cased (`SELECT`, `KILL` …), or `(` for a parenthesised SELECT. */
  keyword: string;
  /** The statement's UTF-8 bytes, which the tokens' offsets point into. */
  bytes: Buffer;
}

const TRIVIA = new Set(['Whitespace', 'Comment']);

const isControlOrBackslash = (c: string) => c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f;

/**
 * Lexes `sql` with ClickHouse's own lexer. The text reaches the engine hex-encoded inside a query
 * of ours, so none of it is parsed as SQL here, and this runs before anything else sees it: in
 * chDB one request may carry several statements, and they must be told apart first.
 */
export async function lexStatement(conn: ConsoleConnection, sql: string): Promise<LexedStatement> {
  const bytes = Buffer.from(sql, 'utf8');
  if (bytes.length > MAX_STATEMENT_BYTES) {
    throw new Error(
      `The SQL console takes statements up to ${MAX_STATEMENT_BYTES} bytes; this one has ${bytes.length}.`,
    );
  }
  const [row] = await conn.rows(`SELECT tokenizeQuery(unhex('${bytes.toString('hex')}'))`, {});
  const raw = (row as unknown[])[0] as unknown[];
  const tokens = raw.map((t): SqlToken => {
    // A tuple comes as an array, or as an object when named tuples print as objects.
    const [begin, end, type] = Array.isArray(t)
      ? (t as [number, number, string])
      : [(t as SqlToken).begin, (t as SqlToken).end, (t as SqlToken).type];
    return { type, begin, end, text: bytes.subarray(begin, end).toString('utf8') };
  });
  return cutStatement(bytes, tokens);
}

function cutStatement(bytes: Buffer, tokens: SqlToken[]): LexedStatement {
  const words: SqlToken[] = [];
  let semicolon = false;
  for (const t of tokens) {
    if (TRIVIA.has(t.type) || t.type === 'EndOfStream') continue;
    if (t.type.startsWith('Error')) {
      throw new Error(`ClickHouse cannot read the statement at position ${t.begin + 1}: ${t.type}.`);
    }
    if (t.type === 'Semicolon') {
      semicolon = true;
      continue;
    }
    if (semicolon) refuse('One statement per request: this text holds more than one (a `;` ends the first).');
    words.push(t);
  }
  const first = words[0];
  const last = words.at(-1);
  if (!first || !last)
    throw new Error('The SQL console needs a statement, e.g. SELECT count() FROM failures');
  const keyword = first.type === 'OpeningRoundBracket' ? '(' : first.text.toUpperCase();
  if (keyword !== '(' && (first.type !== 'BareWord' || !STATEMENT_KEYWORDS.has(keyword))) {
    refuse(`${first.text} statements are not allowed.`);
  }
  for (const t of words) {
    // EXPLAIN AST prints names unquoted: a line break inside one would print as a node of its own.
    if (t.type === 'QuotedIdentifier' && [...t.text].some(isControlOrBackslash)) {
      refuse(`The quoted name ${t.text} holds a backslash or a control character; write it without.`);
    }
  }
  return { text: bytes.subarray(0, last.end).toString('utf8'), words, keyword, bytes };
}

const isName = (t: SqlToken | undefined) => t?.type === 'BareWord' || t?.type === 'QuotedIdentifier';
const isWord = (t: SqlToken | undefined, word: string) =>
  t?.type === 'BareWord' && t.text.toUpperCase() === word;

function unquote(t: SqlToken): string {
  if (t.type !== 'QuotedIdentifier') return t.text;
  const q = t.text[0]!;
  return t.text.slice(1, -1).replaceAll(q + q, q);
}

const OPENING = new Set(['OpeningRoundBracket', 'OpeningSquareBracket', 'OpeningCurlyBrace']);
const CLOSING = new Set(['ClosingRoundBracket', 'ClosingSquareBracket', 'ClosingCurlyBrace']);
/** What may come right before a WITH that starts a query (not WITH TOTALS, WITH FILL …). */
const QUERY_START = new Set([
  'UNION',
  'EXCEPT',
  'INTERSECT',
  'EXPLAIN',
  'AST',
  'SYNTAX',
  'PLAN',
  'PIPELINE',
  'ESTIMATE',
  'TREE',
  'DESCRIBE',
  'DESC',
]);
const SET_OPERATORS = new Set(['UNION', 'EXCEPT', 'INTERSECT']);

const upper = (t: SqlToken | undefined) => (t?.type === 'BareWord' ? t.text.toUpperCase() : '');

/** Whether a WITH after `words[0..i)` starts a query: first, after `(`, `UNION [ALL]`, EXPLAIN … */
function startsQuery(words: readonly SqlToken[], i: number): boolean {
  const before = words[i - 1];
  if (!before || before.type === 'OpeningRoundBracket') return true;
  const word = upper(before);
  if (word === 'ALL' || word === 'DISTINCT') return SET_OPERATORS.has(upper(words[i - 2]));
  return QUERY_START.has(word);
}

/** The index of the bracket closing the one opened at `open`. */
function closing(words: readonly SqlToken[], open: number): number {
  let depth = 0;
  for (let j = open; j < words.length; j++) {
    if (OPENING.has(words[j]!.type)) depth++;
    else if (CLOSING.has(words[j]!.type) && --depth === 0) return j;
  }
  return words.length;
}

/**
 * `name AS (…)`, `name AS [NOT] MATERIALIZED (…)`, `name (a, b) AS (…)` at `i`: the name and the
 * index of the body's opening bracket, else undefined.
 */
function cteAt(words: readonly SqlToken[], i: number): { name: string; open: number } | undefined {
  const name = words[i];
  if (!isName(name)) return undefined;
  let j = i + 1;
  if (words[j]?.type === 'OpeningRoundBracket') j = closing(words, j) + 1;
  if (!isWord(words[j++], 'AS')) return undefined;
  if (isWord(words[j], 'NOT')) j++;
  if (isWord(words[j], 'MATERIALIZED')) j++;
  return words[j]?.type === 'OpeningRoundBracket' ? { name: unquote(name!), open: j } : undefined;
}

/** A common table expression as written: its name and the text of its body, without brackets. */
export interface WrittenCte {
  name: string;
  body: string;
}

/** What the statement's WITH clauses bind. */
export interface WithClauses {
  ctes: WrittenCte[];
  /** How many WITH clauses the statement has (with or without table expressions). */
  clauses: number;
}

/**
 * The common table expressions the statement's WITH clauses bind, as written. EXPLAIN AST prints a
 * `WithElement` for each but not its name; with-bindings.ts pairs them by their bodies. Only the
 * first tokens of each element of a WITH clause that starts a query are looked at, so `y AS (…)`
 * elsewhere (INTERPOLATE, WINDOW) is never taken for one.
 */
export function withClauses(statement: LexedStatement): WithClauses {
  const { words, bytes } = statement;
  const ctes: WrittenCte[] = [];
  const lists: number[] = []; // bracket depth of each open WITH clause
  let clauses = 0;
  let depth = 0;
  let elementStarts = false;
  for (let i = 0; i < words.length; i++) {
    const t = words[i]!;
    if (elementStarts) {
      elementStarts = false;
      const cte = cteAt(words, i);
      if (cte) {
        const close = words[closing(words, cte.open)];
        const body = bytes.subarray(words[cte.open]!.end, close?.begin ?? bytes.length).toString('utf8');
        ctes.push({ name: cte.name, body });
      }
    }
    if (OPENING.has(t.type)) depth++;
    else if (CLOSING.has(t.type)) {
      depth--;
      while (lists.length && lists.at(-1)! > depth) lists.pop();
    } else if (lists.at(-1) === depth && isWord(t, 'SELECT')) lists.pop();
    else if (lists.at(-1) === depth && t.type === 'Comma') elementStarts = true;
    else if (isWord(t, 'WITH') && startsQuery(words, i)) {
      clauses++;
      lists.push(depth);
      if (isWord(words[i + 1], 'RECURSIVE')) i++;
      elementStarts = true;
    }
  }
  return { ctes, clauses };
}

/**
 * `SHOW [FULL] TABLES [FROM|IN db] [[NOT] LIKE|ILIKE '…'] [LIMIT n]`, read from the tokens
 * because EXPLAIN AST prints SHOW TABLES, SHOW DATABASES and SHOW SETTINGS alike and leaves out
 * a WHERE clause (which could hold a subquery). Returns the database named, '' for none, or
 * undefined when the statement is anything else.
 */
export function showTablesDatabase(words: readonly SqlToken[]): string | undefined {
  let i = 0;
  const at = (w: string) => isWord(words[i], w) && ++i > 0;
  if (!at('SHOW')) return undefined;
  at('FULL');
  if (!at('TABLES')) return undefined;
  let database = '';
  if (at('FROM') || at('IN')) {
    if (!isName(words[i])) return undefined;
    database = unquote(words[i++]!);
  }
  if (isWord(words[i], 'NOT') && (isWord(words[i + 1], 'LIKE') || isWord(words[i + 1], 'ILIKE'))) i++;
  if (at('LIKE') || at('ILIKE')) {
    if (words[i]?.type !== 'StringLiteral') return undefined;
    i++;
  }
  if (at('LIMIT')) {
    if (words[i]?.type !== 'Number') return undefined;
    i++;
  }
  return i === words.length ? database : undefined;
}
