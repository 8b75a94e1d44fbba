import type { ConsoleConnection } from './console-connection.js';
import { type AstNode, explainLines, parseExplainTree, preOrder } from './explain-tree.js';
import { refuse } from './policy-violation.js';
import { type LexedStatement, withClauses } from './statement-tokens.js';

/** Which name each WITH element of a parsed statement binds. */
export interface WithBindings {
  names: ReadonlyMap<AstNode, string>;
  /** How many WITH clauses the statement has (with or without table expressions). */
  clauses: number;
}

const UNPAIRED =
  'The console cannot tell which names this statement binds with WITH name AS (…); write each as WITH name AS (SELECT …), each with a body of its own.';

/** A subtree as a string: equal strings, equal trees. */
const treeKey = (n: AstNode): string => JSON.stringify([n.type, n.rest, n.children.map(treeKey)]);

/**
 * EXPLAIN AST prints each WITH element without its name, and not always where it was written
 * (ClickHouse keeps INTERPOLATE and LIMIT … OFFSET in an order of its own). So each body written
 * in the text (statement-tokens.ts finds them with the names) is parsed on its own and paired with
 * the WITH element whose subtree prints the same. Two bodies alike under different names, or any
 * body left unpaired, and the statement is refused: a wrong pairing would let a name that ClickHouse
 * reads as a table pass as a WITH.
 */
export async function bindWithNames(
  conn: ConsoleConnection,
  tree: AstNode,
  statement: LexedStatement,
  params: Record<string, unknown>,
): Promise<WithBindings> {
  const { ctes, clauses } = withClauses(statement);
  const elements = [...preOrder(tree)].filter((n) => n.type === 'WithElement');
  if (elements.length !== ctes.length) refuse(UNPAIRED);
  const written = new Map<string, { names: Set<string>; count: number }>();
  for (const cte of ctes) {
    const body = parseExplainTree(await explainLines(conn, cte.body, params)) ?? refuse(UNPAIRED);
    const key = treeKey(body);
    const entry = written.get(key) ?? { names: new Set<string>(), count: 0 };
    entry.names.add(cte.name);
    entry.count++;
    written.set(key, entry);
  }
  const names = new Map<AstNode, string>();
  for (const element of elements) {
    // WithElement → Subquery → SelectWithUnionQuery: the body as written.
    const body = element.children[0]?.children[0];
    const entry = body ? written.get(treeKey(body)) : undefined;
    if (entry?.names.size !== 1 || entry.count-- <= 0) refuse(UNPAIRED);
    names.set(element, [...entry.names][0]!);
  }
  return { names, clauses };
}
