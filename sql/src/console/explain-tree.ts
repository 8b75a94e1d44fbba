import type { ConsoleConnection } from './console-connection.js';

/**
 * ClickHouse's parse tree of one statement, read from `EXPLAIN AST` (which parses and prints,
 * never executes). Each output line is one node: its depth as leading spaces, its label (type,
 * then what the node names) and, when it has any, `(children N)`.
 *
 * Names are printed unquoted, so a quoted identifier holding a line break could print lines of its
 * own; statement-tokens.ts refuses such identifiers before EXPLAIN runs. The tree is still checked
 * for shape (every depth one below its parent, every child count as declared), and anything that
 * does not fit is refused instead of guessed at.
 */
export interface AstNode {
  /** The first word of the label: `SelectQuery`, `Function`, `TableIdentifier`, `Explain` … */
  type: string;
  /** The rest of the label: a name with an optional ` (alias …)`, a literal, an EXPLAIN kind. */
  rest: string;
  children: AstNode[];
}

/** What the console puts before a statement to have it parsed (positions in errors count from it). */
export const EXPLAIN_PREFIX = 'EXPLAIN AST ';

/** EXPLAIN AST's lines for `sql` on `conn`, one per node. */
export async function explainLines(
  conn: ConsoleConnection,
  sql: string,
  params: Record<string, unknown> = {},
): Promise<string[]> {
  const rows = await conn.rows(EXPLAIN_PREFIX + sql, params);
  return rows.map((r) => String((r as unknown[])[0]));
}

const CHILDREN = / \(children (\d+)\)$/;
const NAMED = /^(\S+)(?: \(alias .*\))?$/;

/** Builds the tree from EXPLAIN AST's lines; returns undefined when they do not form one. */
export function parseExplainTree(lines: readonly string[]): AstNode | undefined {
  const stack: AstNode[] = [];
  const declared = new Map<AstNode, number>();
  let root: AstNode | undefined;
  for (const line of lines) {
    const depth = line.length - line.trimStart().length;
    let label = line.slice(depth);
    const m = CHILDREN.exec(label);
    if (m) label = label.slice(0, m.index);
    if (!label) return undefined;
    const space = label.indexOf(' ');
    const node: AstNode = {
      type: space === -1 ? label : label.slice(0, space),
      rest: space === -1 ? '' : label.slice(space + 1),
      children: [],
    };
    declared.set(node, m ? Number(m[1]) : 0);
    if (depth === 0) {
      if (root) return undefined;
      root = node;
    } else {
      const parent = stack[depth - 1];
      if (!parent) return undefined;
      parent.children.push(node);
    }
    stack.length = depth;
    stack.push(node);
  }
  for (const [node, n] of declared) if (node.children.length !== n) return undefined;
  return root;
}

/**
 * The name a `Function`, `Identifier` or `TableIdentifier` node carries (`db.table` for a qualified
 * table), or undefined when the label holds more than a name and an alias.
 */
export function nodeName(node: AstNode): string | undefined {
  return NAMED.exec(node.rest)?.[1];
}

/** Visits the tree depth first, parents before children (the order ClickHouse printed it). */
export function* preOrder(node: AstNode): Generator<AstNode> {
  yield node;
  for (const child of node.children) yield* preOrder(child);
}
