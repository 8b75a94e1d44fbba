import { tokenize } from './sql-tokens.js';

/**
 * Splits SQL text into statements on the `;` tokens of the one lexer (`tokenize`, which lexes as
 * ClickHouse does: `--` and `#` line comments, nested block comments, quotes with doubled or
 * backslashed quotes), so a `;` inside any of those never splits. ClickHouse runs one statement
 * per request and schema files hold several. Comments go (a line comment becomes the newline it
 * ended on, a block comment a space); each statement comes back trimmed, empty ones dropped.
 */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const token of tokenize(sql)) {
    if (token.type === 'Semicolon') {
      if (current.trim()) out.push(current.trim());
      current = '';
    } else if (token.type === 'Comment') current += token.text.startsWith('/*') ? ' ' : '';
    else current += token.text;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
