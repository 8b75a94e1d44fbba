import { isKeyword, nextWord, type Token } from '../lexer/sql-tokens.js';
import { mergedRowsSubquery } from './merged-rows.js';
import { ident, qualified, type RenderContext } from './render-context.js';
import { applyEdits, type Edit, headEdits } from './statement-edits.js';
import type { StatementHead } from './statement-head.js';
import { globalInPositions, tableReferences } from './table-references.js';

/** The index of a FINAL right after the table name at `at` (and its alias), else undefined. */
function finalAfter(tokens: readonly Token[], at: number, aliased: boolean): number | undefined {
  let j = nextWord(tokens, at + 1);
  if (aliased) {
    if (isKeyword(tokens[j], 'AS')) j = nextWord(tokens, j + 1);
    j = nextWord(tokens, j + 1);
  }
  return isKeyword(tokens[j], 'FINAL') ? j : undefined;
}

/** A reference renamed: `FROM t` → `FROM t_local AS t`, so `t.col` in the query still resolves. */
function referenceEdit(ctx: RenderContext, at: number, name: string, target: string, aliased: boolean): Edit {
  const renamed = qualified(ctx, target);
  return { at, text: aliased || renamed === ident(name) ? renamed : `${renamed} AS ${ident(name)}` };
}

/**
 * `CREATE MATERIALIZED VIEW mv TO t AS SELECT … FROM src`: a materialized view fires on the
 * inserts of the server it lives on, so in the cluster it reads the local tables (each replica
 * sees the blocks written to it) and writes the local table of its target, on the same shard.
 */
export function renderMaterializedView(ctx: RenderContext, head: StatementHead, tokens: Token[]): string {
  const toAt = nextWord(tokens, head.afterName);
  if (!isKeyword(tokens[toAt], 'TO')) {
    throw new RangeError(
      `Materialized view ${head.name} has no TO table; the cluster schema needs MVs that write a table of the schema`,
    );
  }
  const targetAt = nextWord(tokens, toAt + 1);
  const targetName = tokens[targetAt]!.text;
  const target = ctx.tables.get(targetName);
  if (!target)
    throw new RangeError(
      `Materialized view ${head.name} writes ${targetName}, which is not a table of the schema`,
    );
  const edits = headEdits(ctx, head);
  edits.push({ at: targetAt, text: qualified(ctx, target.localName) });
  for (const ref of tableReferences(tokens)) {
    const table = ctx.tables.get(ref.name);
    if (table) edits.push(referenceEdit(ctx, ref.at, ref.name, table.localName, ref.aliased));
  }
  return applyEdits(tokens, edits);
}

/**
 * `CREATE VIEW v AS SELECT … FROM t`: a view is a read, so it reads the Distributed tables. An
 * `IN (SELECT …)` subquery of such a read would be sent to every shard reading the Distributed
 * table again (refused by default: distributed_product_mode = 'deny'). When every table the view
 * reads is placed by trace (first_hand_failures: a failure and its parent or children share a
 * trace), the subquery reads the local tables, so each shard answers from its own rows: the result
 * of distributed_product_mode = 'local', written into the view so that no reader needs the
 * setting. Otherwise the subquery becomes GLOBAL IN: computed once over the cluster, then shipped.
 * A JOIN follows the same rule. `FROM t FINAL` over a table whose keys may span shards becomes
 * the cross-shard merge of merged-rows.ts.
 */
export function renderView(ctx: RenderContext, head: StatementHead, tokens: Token[]): string {
  const edits = headEdits(ctx, head);
  const refs = tableReferences(tokens).filter((r) => ctx.tables.has(r.name));
  const byTrace = refs.every((r) => ctx.tables.get(r.name)!.byTrace);
  for (const ref of refs) {
    const table = ctx.tables.get(ref.name)!;
    const local = (ref.inSubquery || ref.joined) && byTrace;
    if (ref.joined && !byTrace) {
      throw new RangeError(
        `View ${head.name} joins ${ref.name}, which is not placed by trace; write GLOBAL JOIN in the schema file`,
      );
    }
    const final = finalAfter(tokens, ref.at, ref.aliased);
    if (final !== undefined && table.mergesAcrossShards) {
      edits.push({
        at: ref.at,
        text: `${mergedRowsSubquery(ctx, table, head.name)}${ref.aliased ? '' : ` AS ${ident(ref.name)}`}`,
      });
      // Keep the alias (if any), drop FINAL: the subquery has merged the rows.
      edits.push({ at: final, text: '' });
      continue;
    }
    const target = local ? table.localName : table.name;
    if (local || ctx.database) edits.push(referenceEdit(ctx, ref.at, ref.name, target, ref.aliased));
  }
  if (!byTrace) for (const at of globalInPositions(tokens)) edits.push({ at, text: 'GLOBAL ', insert: true });
  return applyEdits(tokens, edits);
}
