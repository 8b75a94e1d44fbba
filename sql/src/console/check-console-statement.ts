import type { ClickHouseError } from '@clickhouse/client';
import type { ConsoleCatalogue } from './console-catalogue.js';
import type { ConsoleConnection } from './console-connection.js';
import { checkStatement, SETTINGS_REFUSED, type StatementKind } from './console-policy.js';
import { EXPLAIN_PREFIX, explainLines, parseExplainTree } from './explain-tree.js';
import { refuse } from './policy-violation.js';
import { type LexedStatement, lexStatement } from './statement-tokens.js';
import { bindWithNames } from './with-bindings.js';

/** ClickHouse refusing a setting change (readonly) or an unknown setting: a SETTINGS clause. */
const SETTINGS_ERRORS = new Set(['164', '115']);
const SYNTAX_ERROR = '62';

/** A statement the console may run, cut to its text, and how it runs. */
export interface CheckedStatement {
  statement: LexedStatement;
  kind: StatementKind;
}

/**
 * ClickHouse's lexer and parser decide, on the request's own readonly connection: the lexer cuts
 * the text to one statement, EXPLAIN AST parses it (without running it; with the parameters bound,
 * since ClickHouse substitutes them while parsing) and the policy walks the tree.
 */
export async function checkConsoleStatement(
  conn: ConsoleConnection,
  sql: string,
  params: Record<string, unknown>,
  catalogue: ConsoleCatalogue,
): Promise<CheckedStatement> {
  const statement = await lexStatement(conn, sql);
  let lines: string[];
  try {
    lines = await explainLines(conn, statement.text, params);
  } catch (err) {
    const code = (err as Partial<ClickHouseError>).code;
    // Under readonly = 1 the parser already refuses a SETTINGS clause that changes anything.
    if (code && SETTINGS_ERRORS.has(code)) refuse(SETTINGS_REFUSED);
    if (code === SYNTAX_ERROR && err instanceof Error) {
      // Positions count from EXPLAIN AST's start; the person wrote only the statement.
      err.message = err.message.replace(
        /position (\d+)/,
        (_, n: string) => `position ${Number(n) - EXPLAIN_PREFIX.length}`,
      );
    }
    throw err;
  }
  const tree =
    parseExplainTree(lines) ?? refuse("The console cannot read ClickHouse's parse of this statement.");
  const bindings = await bindWithNames(conn, tree, statement, params);
  return { statement, kind: checkStatement(tree, statement, catalogue, bindings) };
}
