import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSchemaFiles } from '../ddl/schema-files.js';
import { splitStatements } from '../lexer/split-statements.js';
import type { ConsoleConnection } from './console-connection.js';
import { type AstNode, explainLines, nodeName, parseExplainTree, preOrder } from './explain-tree.js';

export type FaultlineObjectKind = 'table' | 'view' | 'parameterized view' | 'materialized view';

/** A table or view sql/schema creates. */
export interface FaultlineObject {
  kind: FaultlineObjectKind;
  /** A parameterized view's parameters (`from`, `to` …), read as `name(from = …, to = …)`. */
  params: string[];
}

/** A function as the engine knows it (system.functions), its alias resolved. */
export interface FunctionInfo {
  name: string;
  aggregate: boolean;
  categories: string[];
  /** `System`, `SQLUserDefined`, `ExecutableUserDefined` … */
  origin: string;
}

/** What the console may read, learnt once per engine: Faultline's objects and the engine's functions. */
export interface ConsoleCatalogue {
  database: string;
  /** Tables and views sql/schema creates, by name. */
  objects: ReadonlyMap<string, FaultlineObject>;
  /** SQL functions sql/schema creates (`faultline_call_role` …). */
  functions: ReadonlySet<string>;
  /** The function a name calls (an alias, a case-insensitive spelling, an aggregate with combinators). */
  resolveFunction(name: string): FunctionInfo | undefined;
}

function describeObject(create: AstNode): FaultlineObject {
  const types = new Set(create.children.map((c) => c.type));
  if (types.has('ViewTargets')) return { kind: 'materialized view', params: [] };
  if (!types.has('SelectWithUnionQuery')) return { kind: 'table', params: [] };
  // `QueryParameter from:DateTime`: the name before the colon.
  const params = new Set<string>();
  for (const n of preOrder(create)) if (n.type === 'QueryParameter') params.add(n.rest.split(':')[0]!);
  return { kind: params.size > 0 ? 'parameterized view' : 'view', params: [...params] };
}

/**
 * Faultline's objects, read from sql/schema by ClickHouse's parser (the files are ours; EXPLAIN
 * AST only parses them): each CREATE names a table, view or materialized view, each CREATE
 * FUNCTION a SQL function. DROPs of retired views need no entry: what no longer exists cannot be read.
 */
async function schemaObjects(conn: ConsoleConnection, sqlDir: string) {
  const objects = new Map<string, FaultlineObject>();
  const functions = new Set<string>();
  for (const file of listSchemaFiles(sqlDir)) {
    for (const statement of splitStatements(readFileSync(join(sqlDir, 'schema', file), 'utf8'))) {
      const root = parseExplainTree(await explainLines(conn, statement));
      const name = root?.children[0]?.type === 'Identifier' ? nodeName(root.children[0]) : undefined;
      if (!root || !name) continue;
      if (root.type === 'CreateQuery') objects.set(name, describeObject(root));
      else if (root.type === 'CreateSQLFunctionQuery') functions.add(name);
    }
  }
  return { objects, functions };
}

interface FunctionRow {
  info: FunctionInfo;
  aliasTo: string;
  caseInsensitive: boolean;
}

async function engineFunctions(conn: ConsoleConnection) {
  const rows = await conn.rows(
    'SELECT name, is_aggregate, case_insensitive, alias_to, categories, toString(origin) FROM system.functions',
    {},
  );
  const byName = new Map<string, FunctionRow>();
  const byLowerName = new Map<string, FunctionRow>();
  for (const r of rows as [string, number, number, string, string, string][]) {
    const [name, aggregate, caseInsensitive, aliasTo, categories, origin] = r;
    const row: FunctionRow = {
      info: {
        name,
        aggregate: aggregate === 1,
        categories: categories ? categories.split(/,\s*/) : [],
        origin,
      },
      aliasTo,
      caseInsensitive: caseInsensitive === 1,
    };
    byName.set(name, row);
    if (row.caseInsensitive) byLowerName.set(name.toLowerCase(), row);
  }
  const combinators = (await conn.rows('SELECT name FROM system.aggregate_function_combinators', {}))
    .map((r) => String((r as unknown[])[0]))
    .sort((a, b) => b.length - a.length);
  const find = (name: string) => byName.get(name) ?? byLowerName.get(name.toLowerCase());
  const resolve = (name: string, depth = 0): FunctionInfo | undefined => {
    if (depth > 8) return undefined;
    const row = find(name);
    if (row) return row.aliasTo ? resolve(row.aliasTo, depth + 1) : row.info;
    // sumIf, uniqExactState, quantilesMergeForEach …: an aggregate function with combinators.
    for (const c of combinators) {
      if (name.length > c.length && name.endsWith(c)) {
        const base = resolve(name.slice(0, -c.length), depth + 1);
        if (base?.aggregate) return base;
      }
    }
    return undefined;
  };
  return resolve;
}

/** Reads the catalogue through `conn` (opened with CATALOGUE_SETTINGS). */
export async function loadCatalogue(
  conn: ConsoleConnection,
  database: string,
  sqlDir: string,
): Promise<ConsoleCatalogue> {
  const { objects, functions } = await schemaObjects(conn, sqlDir);
  const resolveFunction = await engineFunctions(conn);
  return { database, objects, functions, resolveFunction };
}
