import { isKeyword, isName, nameOf, nextWord, type Token } from '../lexer/sql-tokens.js';

/** One table named after FROM or JOIN. */
export interface TableReference {
  /** Token index of the name. */
  at: number;
  name: string;
  /** Whether an alias follows (`FROM t AS x`, `FROM t x`). */
  aliased: boolean;
  /** Whether the reference sits inside an `IN (SELECT …)` subquery. */
  inSubquery: boolean;
  /** Whether it follows JOIN. */
  joined: boolean;
}

/** What may follow a table name without being its alias. */
const NOT_ALIAS = new Set(
  'WHERE PREWHERE GROUP ORDER LIMIT SETTINGS FINAL SAMPLE ARRAY LEFT RIGHT INNER OUTER FULL CROSS JOIN GLOBAL ANY ALL ASOF SEMI ANTI PASTE UNION EXCEPT INTERSECT HAVING WINDOW QUALIFY FORMAT INTO ON USING WITH OFFSET'.split(
    ' ',
  ),
);
const OPENING = new Set(['OpeningRoundBracket', 'OpeningSquareBracket', 'OpeningCurlyBrace']);
const CLOSING = new Set(['ClosingRoundBracket', 'ClosingSquareBracket', 'ClosingCurlyBrace']);

const startsQuery = (tokens: readonly Token[], open: number) => {
  const first = tokens[nextWord(tokens, open + 1)];
  return isKeyword(first, 'SELECT') || isKeyword(first, 'WITH');
};

/** The word before token `i`, or undefined. */
function previousWord(tokens: readonly Token[], i: number): { token: Token; at: number } | undefined {
  for (let k = i - 1; k >= 0; k--) {
    const t = tokens[k]!;
    if (t.type !== 'Whitespace' && t.type !== 'Comment') return { token: t, at: k };
  }
  return undefined;
}

/**
 * The unqualified table names a query reads, found after FROM and JOIN of a query (not the FROM
 * inside `extract(… FROM …)` or `trim(… FROM …)`, whose bracket does not start a query), with
 * table functions and parametric views (`name(…)`) left out.
 */
export function tableReferences(tokens: readonly Token[]): TableReference[] {
  const refs: TableReference[] = [];
  // Open brackets enclosing the current token: index and whether it is an IN (SELECT …) subquery.
  const stack: { open: number; query: boolean; inSubquery: boolean }[] = [];
  tokens.forEach((t, k) => {
    if (OPENING.has(t.type)) {
      const before = previousWord(tokens, k)?.token;
      const query = t.type === 'OpeningRoundBracket' && startsQuery(tokens, k);
      stack.push({
        open: k,
        query,
        inSubquery: (query && isKeyword(before, 'IN')) || !!stack.at(-1)?.inSubquery,
      });
      return;
    }
    if (CLOSING.has(t.type)) {
      stack.pop();
      return;
    }
    const from = isKeyword(t, 'FROM');
    const joined = isKeyword(t, 'JOIN');
    if (!from && !joined) return;
    const enclosing = stack.at(-1);
    if (enclosing && !enclosing.query) return;
    const n = nextWord(tokens, k + 1);
    const nameToken = tokens[n];
    if (!isName(nameToken)) return;
    const after = tokens[nextWord(tokens, n + 1)];
    if (after?.type === 'OpeningRoundBracket' || after?.type === 'Dot') return;
    const aliased =
      isKeyword(after, 'AS') ||
      after?.type === 'QuotedIdentifier' ||
      (after?.type === 'BareWord' && !NOT_ALIAS.has(after.text.toUpperCase()));
    refs.push({ at: n, name: nameOf(nameToken!), aliased, inSubquery: !!enclosing?.inSubquery, joined });
  });
  return refs;
}

/**
 * Where GLOBAL goes for each `IN (SELECT …)` / `NOT IN (SELECT …)` that has none: the token index of
 * its NOT, else of its IN.
 */
export function globalInPositions(tokens: readonly Token[]): number[] {
  const out: number[] = [];
  tokens.forEach((t, k) => {
    if (!isKeyword(t, 'IN')) return;
    const open = nextWord(tokens, k + 1);
    if (tokens[open]?.type !== 'OpeningRoundBracket' || !startsQuery(tokens, open)) return;
    let at = k;
    let before = previousWord(tokens, k);
    if (before && isKeyword(before.token, 'NOT')) {
      at = before.at;
      before = previousWord(tokens, before.at);
    }
    if (before && isKeyword(before.token, 'GLOBAL')) return;
    out.push(at);
  });
  return out;
}
