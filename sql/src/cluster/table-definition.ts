import {
  closingIndex,
  depths,
  isKeyword,
  isName,
  isTrivia,
  join,
  nameOf,
  nextWord,
  type Token,
} from '../lexer/sql-tokens.js';
import { readHead } from './statement-head.js';

/** One column: its name and type as written (`SimpleAggregateFunction(sum, UInt64)`). */
export interface ColumnDefinition {
  name: string;
  type: string;
  /** An ALIAS column: computed on read, never stored. */
  alias: boolean;
}

/** A `CREATE TABLE name (…) ENGINE = Engine(args) …` statement cut into the parts the cluster form reuses. */
export interface TableDefinition {
  name: string;
  /** `( … )`: the columns, indexes and projections, as written. */
  body: Token[];
  /** The columns, in order. */
  columns: ColumnDefinition[];
  engine: string;
  /** The engine's arguments inside its brackets (empty for `MergeTree()` or `MergeTree`). */
  engineArgs: Token[];
  /** Everything after the engine: PARTITION BY, ORDER BY, SETTINGS … */
  clauses: Token[];
  /** The ORDER BY expressions, one per sort-key column. */
  sortKey: string[];
}

const NOT_COLUMNS = new Set(['INDEX', 'PROJECTION', 'CONSTRAINT', 'PRIMARY']);
const CLAUSES = new Set(['PARTITION', 'PRIMARY', 'ORDER', 'SAMPLE', 'TTL', 'SETTINGS', 'COMMENT']);

/** Splits `tokens` at commas of bracket depth 0 (relative to the first token). */
export function splitTopLevel(tokens: readonly Token[]): Token[][] {
  const depth = depths(tokens);
  const parts: Token[][] = [[]];
  tokens.forEach((t, k) => {
    if (t.type === 'Comma' && depth[k] === 0) parts.push([]);
    else parts.at(-1)!.push(t);
  });
  return parts;
}

const squash = (tokens: readonly Token[]) =>
  tokens
    .filter((t) => t.type !== 'Comment')
    .map((t) => (t.type === 'Whitespace' ? ' ' : t.text))
    .join('')
    .trim();

/** The table `tokens` creates, or undefined when the statement is not a CREATE TABLE with columns. */
export function readTableDefinition(tokens: readonly Token[]): TableDefinition | undefined {
  const head = readHead(tokens);
  if (head?.verb !== 'CREATE' || head.object !== 'TABLE') return undefined;
  let i = nextWord(tokens, head.afterName);
  if (isKeyword(tokens[i], 'ON')) i = nextWord(tokens, nextWord(tokens, nextWord(tokens, i + 1) + 1) + 1);
  if (tokens[i]?.type !== 'OpeningRoundBracket') {
    throw new RangeError(
      `CREATE TABLE ${head.name} has no column list (CREATE TABLE … AS … is not rendered for a cluster); spell its columns out`,
    );
  }
  const close = closingIndex(tokens, i);
  const body = tokens.slice(i, close + 1);
  const columns = splitTopLevel(body.slice(1, -1)).flatMap((part) => {
    const column = readColumn(part);
    return column ? [column] : [];
  });
  let j = nextWord(tokens, close + 1);
  if (!isKeyword(tokens[j], 'ENGINE')) throw new RangeError(`CREATE TABLE ${head.name} names no ENGINE`);
  j = nextWord(tokens, j + 1);
  if (tokens[j]?.text === '=') j = nextWord(tokens, j + 1);
  const engine = tokens[j]!.text;
  let engineArgs: Token[] = [];
  let after = j + 1;
  const open = nextWord(tokens, j + 1);
  if (tokens[open]?.type === 'OpeningRoundBracket') {
    const end = closingIndex(tokens, open);
    engineArgs = tokens.slice(open + 1, end);
    after = end + 1;
  }
  const clauses = tokens.slice(after);
  return { name: head.name, body, columns, engine, engineArgs, clauses, sortKey: readSortKey(clauses) };
}

/** Where a column's type ends: its default, codec, TTL, comment or position. */
const AFTER_TYPE = new Set([
  'DEFAULT',
  'MATERIALIZED',
  'ALIAS',
  'EPHEMERAL',
  'CODEC',
  'TTL',
  'COMMENT',
  'AFTER',
  'FIRST',
  'STATISTICS',
  'SETTINGS',
  'NULL',
  'NOT',
  'PRIMARY',
]);

/** `name Type …` (a column definition, as in CREATE TABLE or ADD COLUMN), else undefined. */
export function readColumn(part: readonly Token[]): ColumnDefinition | undefined {
  const at = part.findIndex((t) => !isTrivia(t));
  const first = part[at];
  if (!first || !isName(first) || NOT_COLUMNS.has(first.text.toUpperCase())) return undefined;
  const rest = part.slice(at + 1);
  const depth = depths(rest);
  let end = rest.findIndex(
    (t, k) => depth[k] === 0 && t.type === 'BareWord' && AFTER_TYPE.has(t.text.toUpperCase()),
  );
  if (end === -1) end = rest.length;
  return { name: nameOf(first), type: squash(rest.slice(0, end)), alias: isKeyword(rest[end], 'ALIAS') };
}

/** The expressions of the top-level ORDER BY in `clauses`. */
function readSortKey(clauses: readonly Token[]): string[] {
  const depth = depths(clauses);
  const start = clauses.findIndex((t, k) => depth[k] === 0 && isKeyword(t, 'ORDER'));
  if (start === -1) return [];
  const from = nextWord(clauses, nextWord(clauses, start + 1) + 1); // past BY
  let to = from;
  while (to < clauses.length && !(depth[to] === 0 && CLAUSES.has(clauses[to]!.text.toUpperCase()))) to++;
  let key = clauses.slice(from, to);
  while (key.length && isTrivia(key.at(-1))) key = key.slice(0, -1);
  if (key[0]?.type === 'OpeningRoundBracket' && closingIndex(key, 0) === key.length - 1) {
    return splitTopLevel(key.slice(1, -1)).map(squash).filter(Boolean);
  }
  return [squash(key)].filter((k) => k !== '' && k !== 'tuple()');
}

/** `tokens` with trailing whitespace and comments removed. */
export const trimEnd = (tokens: readonly Token[]): Token[] => {
  let end = tokens.length;
  while (end > 0 && isTrivia(tokens[end - 1])) end--;
  return tokens.slice(0, end);
};

export { join };
