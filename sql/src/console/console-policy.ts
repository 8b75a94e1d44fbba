import {
  AST_NODE_TYPES,
  DENIED_FUNCTION_CATEGORIES,
  DENIED_FUNCTIONS,
  EXPLAIN_KINDS,
  IN_FUNCTIONS,
  INTERNAL_FUNCTION_PREFIX,
  SYNTAX_FUNCTIONS,
  SYSTEM_TABLES,
  TABLE_FUNCTIONS,
} from './console-allowlist.js';
import type { ConsoleCatalogue } from './console-catalogue.js';
import { type AstNode, nodeName } from './explain-tree.js';
import { refuse } from './policy-violation.js';
import { type LexedStatement, showTablesDatabase } from './statement-tokens.js';
import type { WithBindings } from './with-bindings.js';

/** How a checked statement runs: SELECTs stream; EXPLAIN, SHOW and DESCRIBE come whole. */
export type StatementKind = 'select' | 'explain' | 'show' | 'describe';

export const SETTINGS_REFUSED =
  'SETTINGS clauses (and EXPLAIN options) are not allowed: the console fixes the limits a statement runs under.';

/**
 * Decides from ClickHouse's parse tree whether the console may run a statement: its kind, every
 * table it reads (FROM, JOIN, `IN t`, DESCRIBE, SHOW CREATE), every table function and every
 * function it calls. Throws a PolicyViolation naming the first thing refused.
 */
export function checkStatement(
  tree: AstNode,
  statement: LexedStatement,
  catalogue: ConsoleCatalogue,
  bindings: WithBindings,
): StatementKind {
  const walk = new PolicyWalk(statement, catalogue, bindings);
  switch (tree.type) {
    case 'SelectWithUnionQuery':
      walk.query(tree);
      return 'select';
    case 'Explain':
      if (!EXPLAIN_KINDS.has(tree.rest)) refuse(`${tree.rest} is not allowed.`);
      walk.output(tree, 'SelectWithUnionQuery');
      walk.query(tree.children[0]!);
      return 'explain';
    case 'DescribeQuery':
      walk.output(tree, 'TableExpression');
      walk.visit(tree.children[0]!, new Set());
      return 'describe';
    case 'ShowCreateTableQuery':
    case 'ShowCreateViewQuery':
      walk.showCreate(tree);
      return 'show';
    case 'ShowTables':
      walk.showTables(tree);
      return 'show';
    default:
      refuse(`${statementName(tree)} is not allowed.`);
  }
}

/** `ShowProcesslistQuery` → SHOW PROCESSLIST, `SHOW USERS query` → SHOW USERS, `InsertQuery` → INSERT. */
function statementName(tree: AstNode): string {
  const label = `${tree.type} ${tree.rest}`.trim();
  if (label.toLowerCase().endsWith(' query')) return label.slice(0, -' query'.length).toUpperCase();
  return tree.type
    .replace(/Query$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toUpperCase();
}

/**
 * Where a WITH name may be read as a table, kept no wider than where ClickHouse reads it as the
 * WITH (checked on this engine): a name it did not bind would be read as a table of the current
 * database, and there chDB falls back to a file of that name. So a table expression is visible
 * in the rest of its SELECT, its subqueries and the table expressions written after it (not in
 * its own body, nor in earlier ones); and from the first SELECT of a UNION in the union's other
 * SELECTs only when the statement has no other WITH clause (a SELECT with a WITH of its own,
 * even `WITH 1 AS x`, does not get the first one's).
 */
class PolicyWalk {
  /** The name each WITH element binds (EXPLAIN AST leaves it out). */
  readonly #withNames: ReadonlyMap<AstNode, string>;
  /** Whether the union members may share the first SELECT's WITH (the statement has one WITH). */
  readonly #oneWith: boolean;

  constructor(
    readonly statement: LexedStatement,
    readonly catalogue: ConsoleCatalogue,
    bindings: WithBindings,
  ) {
    this.#withNames = bindings.names;
    this.#oneWith = bindings.clauses === 1;
  }

  /**
   * A statement's children: `first` (what it reads), then nothing. FORMAT, INTO OUTFILE and
   * SETTINGS print as further children of the statement (EXPLAIN's options as a first one).
   */
  output(node: AstNode, first: string): void {
    node.children.forEach((c, i) => {
      if (i === 0 && c.type === first) return;
      if (c.type === 'Set') refuse(SETTINGS_REFUSED);
      if (c.type === 'Identifier')
        refuse('FORMAT clauses are not allowed: the console returns rows as JSON.');
      if (c.type === 'Literal') refuse('INTO OUTFILE is not allowed: the console writes no files.');
      if (node.type === 'Explain') refuse('EXPLAIN is allowed for SELECT statements only.');
      refuse(`The console cannot check this ${node.type}.`);
    });
    if (node.children.length === 0) refuse(`The console cannot check this ${node.type}.`);
  }

  query(node: AstNode): void {
    if (node.type !== 'SelectWithUnionQuery') refuse('EXPLAIN is allowed for SELECT statements only.');
    this.output(node, 'ExpressionList');
    this.visit(node, new Set());
  }

  visit(node: AstNode, scope: ReadonlySet<string>): void {
    if (!AST_NODE_TYPES.has(node.type)) {
      if (node.type === 'Set') refuse(SETTINGS_REFUSED);
      if (node.type === 'ColumnsApplyTransformer') {
        refuse(
          'APPLY(…) is not allowed: the console cannot see the function it applies; call the function on the columns instead.',
        );
      }
      refuse(`The console cannot check ${node.type} in a statement.`);
    }
    switch (node.type) {
      case 'SelectWithUnionQuery':
        this.#union(node, scope, []);
        return;
      case 'SelectQuery':
        this.#select(node, scope);
        return;
      case 'TableExpression': {
        const [table, ...rest] = node.children;
        if (table) this.#source(table, scope);
        for (const c of rest) this.visit(c, scope);
        return;
      }
      case 'TableIdentifier':
        this.#table(this.#name(node), scope);
        return;
      case 'Function': {
        const name = this.#name(node);
        this.#function(name);
        const right = node.children[0]?.children[1];
        if (IN_FUNCTIONS.has(name) && right?.type === 'Identifier') this.#table(this.#name(right), scope);
        break;
      }
    }
    for (const c of node.children) this.visit(c, scope);
  }

  showCreate(node: AstNode): void {
    // The label names `db table` (db empty when not given); the children are those identifiers.
    const [db, table, ...more] = node.rest.split(' ');
    const ids = node.children.filter((c) => c.type === 'Identifier');
    if (more.length || !table || ids.length !== node.children.length || ids.length !== (db ? 2 : 1)) {
      refuse("SHOW CREATE TABLE|VIEW takes one of Faultline's tables or views, without FORMAT or SETTINGS.");
    }
    this.#table(db ? `${db}.${table}` : table, new Set());
  }

  showTables(node: AstNode): void {
    const database = showTablesDatabase(this.statement.words);
    if (database === undefined || node.children.length !== (database ? 1 : 0)) {
      refuse(
        "Of the SHOW statements the console runs SHOW TABLES [LIKE '…'] [LIMIT n] and SHOW CREATE TABLE; use DESCRIBE for columns.",
      );
    }
    if (database && database !== this.catalogue.database) {
      refuse(`SHOW TABLES lists Faultline's database ${this.catalogue.database} only, not ${database}.`);
    }
  }

  /** What FROM, JOIN or DESCRIBE reads: a table, a table function, a parameterized view or a subquery. */
  #source(node: AstNode, scope: ReadonlySet<string>): void {
    if (node.type === 'TableIdentifier' || node.type === 'Subquery') {
      this.visit(node, scope);
      return;
    }
    if (node.type !== 'Function') refuse(`The console cannot check ${node.type} as a table.`);
    const name = this.#name(node);
    if (!TABLE_FUNCTIONS.has(name) && this.catalogue.objects.get(name)?.kind !== 'parameterized view') {
      refuse(`The table function ${name}() is not allowed: it reads outside Faultline's data.`);
    }
    for (const c of node.children) this.visit(c, scope);
  }

  #table(name: string, scope: ReadonlySet<string>): void {
    if (scope.has(name) || this.catalogue.objects.has(name)) return;
    const dot = name.indexOf('.');
    const db = name.slice(0, dot);
    const table = name.slice(dot + 1);
    if (dot > 0 && db === this.catalogue.database && this.catalogue.objects.has(table)) return;
    if (dot > 0 && db === 'system') {
      if (SYSTEM_TABLES.has(table)) return;
      refuse(`system.${table} is not one of the system tables the console reads.`);
    }
    if (dot > 0) refuse(`${name} is outside Faultline's database ${this.catalogue.database}.`);
    refuse(`${name} is not one of Faultline's tables or views.`);
  }

  #function(name: string): void {
    if (SYNTAX_FUNCTIONS.has(name) || this.catalogue.functions.has(name)) return;
    const f = this.catalogue.resolveFunction(name);
    if (!f) refuse(`${name}() is not a function ClickHouse knows.`);
    if (f.origin !== 'System')
      refuse(`${name}() is a user-defined function that Faultline's schema did not create.`);
    const category = f.categories.find((c) => DENIED_FUNCTION_CATEGORIES.has(c));
    if (DENIED_FUNCTIONS.has(f.name) || f.name.startsWith(INTERNAL_FUNCTION_PREFIX) || category) {
      refuse(
        `${name}() is not allowed: it reaches outside Faultline's data${category ? ` (${category.toLowerCase()} functions)` : ' (files, other tables, settings or the host)'} or only holds the console up.`,
      );
    }
  }

  #name(node: AstNode): string {
    return nodeName(node) ?? refuse(`The console cannot read the name in "${node.type} ${node.rest}".`);
  }

  /** A SELECT: its WITH elements see the ones before them; the rest of it sees them all. */
  #select(node: AstNode, scope: ReadonlySet<string>): void {
    const withList = this.#withList(node);
    const names: string[] = [];
    for (const item of withList?.children ?? []) {
      this.visit(item, new Set([...scope, ...names]));
      const name = this.#withNames.get(item);
      if (name !== undefined) names.push(name);
    }
    const inner = new Set([...scope, ...names]);
    for (const c of node.children) if (c !== withList) this.visit(c, inner);
  }

  /** A UNION: `offered` are WITH names its SELECTs get from an enclosing union's first SELECT. */
  #union(node: AstNode, scope: ReadonlySet<string>, offered: readonly string[]): void {
    const [list, ...rest] = node.children;
    if (list?.type !== 'ExpressionList') refuse('The console cannot check this SelectWithUnionQuery.');
    const [first] = list.children;
    const own = this.#oneWith && first?.type === 'SelectQuery' ? this.#namesOf(first) : [];
    list.children.forEach((member, i) => {
      const given = i === 0 ? offered : [...offered, ...own];
      if (member.type === 'SelectWithUnionQuery') this.#union(member, scope, given);
      else if (member.type === 'SelectQuery' && !this.#withList(member)) {
        this.visit(member, new Set([...scope, ...given]));
      } else this.visit(member, scope);
    });
    for (const c of rest) this.visit(c, scope);
  }

  /** The SELECT's list of WITH elements, if it binds any. */
  #withList(select: AstNode): AstNode | undefined {
    return select.children.find(
      (c) => c.type === 'ExpressionList' && c.children.some((item) => this.#withNames.has(item)),
    );
  }

  #namesOf(select: AstNode): string[] {
    return (this.#withList(select)?.children ?? []).flatMap((item) => this.#withNames.get(item) ?? []);
  }
}
