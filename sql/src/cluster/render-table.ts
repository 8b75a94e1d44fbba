import { join } from '../lexer/sql-tokens.js';
import { ident, onCluster, qualified, type RenderContext } from './render-context.js';
import { replicatedSettings } from './replicated-settings.js';
import type { TablePlacement } from './sharding-key.js';
import { type TableDefinition, trimEnd } from './table-definition.js';
import { replicaPath, replicatedEngine } from './table-engines.js';

/**
 * A MergeTree table in its cluster form: the replicated local table holding the rows, then the
 * Distributed table of the original name in front of it, which every reader and writer uses.
 */
export function renderTable(ctx: RenderContext, table: TableDefinition, placement: TablePlacement): string[] {
  const args = join(trimEnd(table.engineArgs)).trim();
  const engineArgs = [replicaPath(placement.localName), "'{replica}'", ...(args ? [args] : [])].join(', ');
  const local =
    `CREATE TABLE IF NOT EXISTS ${qualified(ctx, placement.localName)}${onCluster(ctx)} ${join(table.body)}\n` +
    `ENGINE = ${replicatedEngine(table.engine)}(${engineArgs})` +
    join(trimEnd(replicatedSettings(table.clauses)));
  const database = ctx.database ? `'${ctx.database}'` : 'currentDatabase()';
  const distributed =
    `CREATE TABLE IF NOT EXISTS ${qualified(ctx, placement.name)}${onCluster(ctx)} AS ${qualified(ctx, placement.localName)}\n` +
    `ENGINE = Distributed(${ident(ctx.cluster)}, ${database}, ${ident(placement.localName)}, ${placement.shardingKey})`;
  return [local, distributed];
}
