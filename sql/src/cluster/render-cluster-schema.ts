import { readFileSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import { assertIdentifier } from '../ddl/identifier.js';
import { listSchemaFiles } from '../ddl/schema-files.js';
import { splitStatements } from '../lexer/split-statements.js';
import { tokenize } from '../lexer/sql-tokens.js';
import { assertClusterName } from './cluster-name.js';
import { renderAlter } from './render-alter.js';
import { ident, onCluster, type RenderContext } from './render-context.js';
import { renderDrop } from './render-drop.js';
import { renderTable } from './render-table.js';
import { renderMaterializedView, renderView } from './render-views.js';
import { placeTable } from './sharding-key.js';
import { applyEdits, headEdits } from './statement-edits.js';
import { readHead } from './statement-head.js';
import { readTableDefinition } from './table-definition.js';
import { isMergeTreeEngine } from './table-engines.js';

export interface ClusterSchemaOptions {
  /** The `<remote_servers>` cluster every statement runs ON CLUSTER. */
  cluster: string;
  /**
   * The database to create and qualify every name with. Without it names stay unqualified and the
   * Distributed tables name `currentDatabase()`, which on the servers running ON CLUSTER DDL is
   * their default database, not the caller's (ClickHouse issues 6104, 8170): fine for `default`,
   * otherwise give it (printClusterSchema always does).
   */
  database?: string;
}

/** The statements of sql/schema/NNN_*.sql under `sqlDir`, in the order the single-node store applies them. */
export function readSchemaStatements(sqlDir: string): string[] {
  return listSchemaFiles(sqlDir).flatMap((file) =>
    splitStatements(readFileSync(joinPath(sqlDir, 'schema', file), 'utf8')),
  );
}

/**
 * The single-node schema (`statements`, or the files under the `sql/` folder `sqlDir`) in its
 * cluster form, statement by statement in order: each MergeTree table as a Replicated local table
 * `<name>_local` plus a Distributed table `<name>` in front of it, materialized views on the local
 * tables, and every statement ON CLUSTER. Statements are lexed and edited token by token; any
 * kind this does not know is refused rather than passed through.
 */
export function renderClusterSchema(
  input: string | readonly string[],
  options: ClusterSchemaOptions,
): string[] {
  const ctx: RenderContext = {
    cluster: assertClusterName(options.cluster),
    ...(options.database !== undefined ? { database: assertIdentifier(options.database, 'database') } : {}),
    tables: new Map(),
  };
  const statements = typeof input === 'string' ? readSchemaStatements(input) : input;
  const out: string[] = ctx.database
    ? [`CREATE DATABASE IF NOT EXISTS ${ident(ctx.database)}${onCluster(ctx)}`]
    : [];
  for (const statement of statements) out.push(...renderStatement(ctx, statement));
  return out;
}

function renderStatement(ctx: RenderContext, statement: string): string[] {
  const tokens = tokenize(statement.trim());
  const head = readHead(tokens);
  const refuse = (why: string) =>
    new RangeError(
      `${why}, so it has no cluster form: ${statement.trim().replace(/\s+/g, ' ').slice(0, 80)}…`,
    );
  if (!head) throw refuse('Only CREATE, ALTER and DROP statements are rendered for a cluster');
  if (head.verb === 'CREATE' && head.object === 'TABLE') {
    const table = readTableDefinition(tokens)!;
    if (table.engine.startsWith('Replicated') || table.engine === 'Distributed') {
      throw refuse(`Table ${table.name} already has a cluster engine (${table.engine})`);
    }
    if (!isMergeTreeEngine(table.engine)) return [applyEdits(tokens, headEdits(ctx, head))];
    const placement = placeTable(table);
    ctx.tables.set(table.name, placement);
    return renderTable(ctx, table, placement);
  }
  if (head.verb === 'CREATE' && head.object === 'MATERIALIZED VIEW')
    return [renderMaterializedView(ctx, head, tokens)];
  if (head.verb === 'CREATE' && head.object === 'VIEW') return [renderView(ctx, head, tokens)];
  if (head.verb === 'CREATE' && head.object === 'FUNCTION') return [applyEdits(tokens, headEdits(ctx, head))];
  if (head.verb === 'ALTER' && head.object === 'TABLE') return renderAlter(ctx, head, tokens);
  if (head.verb === 'DROP') return renderDrop(ctx, head, tokens);
  throw refuse(`${head.verb} ${head.object} is not a statement the schema files use`);
}
