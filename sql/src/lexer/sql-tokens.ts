/**
 * A lexer for the DDL this repository ships (sql/schema): the token kinds of ClickHouse's own
 * lexer (`tokenizeQuery`), kept with their text and whitespace so a statement can be edited token
 * by token and joined back unchanged everywhere else. It runs without an engine, so the cluster
 * schema prints without connecting anywhere; test/cluster checks it against ClickHouse's lexer.
 */
export type TokenType =
  | 'Whitespace'
  | 'Comment'
  | 'BareWord'
  | 'QuotedIdentifier'
  | 'StringLiteral'
  | 'Number'
  | 'OpeningRoundBracket'
  | 'ClosingRoundBracket'
  | 'OpeningSquareBracket'
  | 'ClosingSquareBracket'
  | 'OpeningCurlyBrace'
  | 'ClosingCurlyBrace'
  | 'Comma'
  | 'Semicolon'
  | 'Dot'
  | 'Operator';

export interface Token {
  type: TokenType;
  text: string;
}

const SINGLE: Record<string, TokenType> = {
  '(': 'OpeningRoundBracket',
  ')': 'ClosingRoundBracket',
  '[': 'OpeningSquareBracket',
  ']': 'ClosingSquareBracket',
  '{': 'OpeningCurlyBrace',
  '}': 'ClosingCurlyBrace',
  ',': 'Comma',
  ';': 'Semicolon',
};
const OPERATORS = ['->', '::', '!=', '<>', '<=', '>=', '==', '||', '<=>'];

const isWordStart = (c: string) => /[A-Za-z_$\u0080-\uffff]/.test(c);
const isWordPart = (c: string) => /[A-Za-z0-9_$\u0080-\uffff]/.test(c);

/** The end of a quoted run opened at `i` by `q`: a doubled quote or a backslash escapes. */
function quotedEnd(sql: string, i: number, q: string): number {
  let j = i + 1;
  while (j < sql.length) {
    if (sql[j] === '\\') j += 2;
    else if (sql[j] === q && sql[j + 1] === q) j += 2;
    else if (sql[j] === q) return j + 1;
    else j++;
  }
  throw new SyntaxError(`Unterminated ${q} quote at offset ${i}`);
}

/** Every token of `sql`, whitespace and comments included, so joining their text gives `sql` back. */
export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const push = (type: TokenType, end: number) => {
    out.push({ type, text: sql.slice(i, end) });
    i = end;
  };
  while (i < sql.length) {
    const c = sql[i]!;
    const rest = sql.slice(i, i + 3);
    if (/\s/.test(c)) {
      let j = i + 1;
      while (j < sql.length && /\s/.test(sql[j]!)) j++;
      push('Whitespace', j);
    } else if (rest.startsWith('--') || c === '#') {
      const nl = sql.indexOf('\n', i);
      push('Comment', nl === -1 ? sql.length : nl);
    } else if (rest.startsWith('/*')) {
      let depth = 0;
      let j = i;
      do {
        if (sql.startsWith('/*', j)) {
          depth++;
          j += 2;
        } else if (sql.startsWith('*/', j)) {
          depth--;
          j += 2;
        } else if (j >= sql.length) throw new SyntaxError(`Unterminated comment at offset ${i}`);
        else j++;
      } while (depth > 0);
      push('Comment', j);
    } else if (c === "'") push('StringLiteral', quotedEnd(sql, i, c));
    else if (c === '"' || c === '`') push('QuotedIdentifier', quotedEnd(sql, i, c));
    else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? '') && !isValueEnd(out))) {
      const m = /^(0x[0-9a-fA-F]+|0b[01]+|[0-9]*\.?[0-9]*(?:[eE][+-]?[0-9]+)?)/.exec(sql.slice(i))!;
      push('Number', i + Math.max(1, m[0].length));
    } else if (isWordStart(c)) {
      let j = i + 1;
      while (j < sql.length && isWordPart(sql[j]!)) j++;
      push('BareWord', j);
    } else if (c === '.') push('Dot', i + 1);
    else if (SINGLE[c]) push(SINGLE[c], i + 1);
    else {
      const op = OPERATORS.filter((o) => sql.startsWith(o, i)).sort((a, b) => b.length - a.length)[0];
      push('Operator', i + (op?.length ?? 1));
    }
  }
  return out;
}

/** Whether the token right before ends a value (so `.5` after it is `.` then `5`, as in `t.1`). */
function isValueEnd(tokens: readonly Token[]): boolean {
  const last = tokens.at(-1)?.type;
  return (
    last !== undefined &&
    ['BareWord', 'QuotedIdentifier', 'ClosingRoundBracket', 'ClosingSquareBracket', 'Number'].includes(last)
  );
}

/** The text of `tokens` joined. */
export const join = (tokens: readonly Token[]): string => tokens.map((t) => t.text).join('');

export const isTrivia = (t: Token | undefined): boolean => t?.type === 'Whitespace' || t?.type === 'Comment';

/** Whether `t` is the keyword `word` (bare, any case). */
export const isKeyword = (t: Token | undefined, word: string): boolean =>
  t?.type === 'BareWord' && t.text.toUpperCase() === word;

export const isName = (t: Token | undefined): boolean =>
  t?.type === 'BareWord' || t?.type === 'QuotedIdentifier';

/** A name token's identifier, unquoted. */
export function nameOf(t: Token): string {
  if (t.type !== 'QuotedIdentifier') return t.text;
  const q = t.text[0]!;
  return t.text.slice(1, -1).replaceAll(q + q, q);
}

const OPENING = new Set<TokenType>(['OpeningRoundBracket', 'OpeningSquareBracket', 'OpeningCurlyBrace']);
const CLOSING = new Set<TokenType>(['ClosingRoundBracket', 'ClosingSquareBracket', 'ClosingCurlyBrace']);

/** The index of the bracket closing the one at `open` (tokens with trivia), or -1. */
export function closingIndex(tokens: readonly Token[], open: number): number {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    const type = tokens[j]!.type;
    if (OPENING.has(type)) depth++;
    else if (CLOSING.has(type) && --depth === 0) return j;
  }
  return -1;
}

/** The bracket depth before each token: 0 at the statement's top level. */
export function depths(tokens: readonly Token[]): number[] {
  let depth = 0;
  return tokens.map((t) => {
    if (CLOSING.has(t.type)) depth--;
    const d = depth;
    if (OPENING.has(t.type)) depth++;
    return d;
  });
}

/** The index of the next significant token at or after `i`, or tokens.length. */
export function nextWord(tokens: readonly Token[], i: number): number {
  let j = i;
  while (j < tokens.length && isTrivia(tokens[j])) j++;
  return j;
}
