import { ident, qualified, type RenderContext } from './render-context.js';
import type { TablePlacement } from './sharding-key.js';

/** `SimpleAggregateFunction(f, T)` → f. */
const simpleAggregate = (type: string) => /^SimpleAggregateFunction\(\s*(\w+)\s*,/.exec(type)?.[1];
const NUMERIC = /^(U?Int\d+|Float\d+|Decimal)/;

/**
 * `FROM t FINAL` over a Distributed table merges each shard's rows apart; when the rows of one key
 * may sit on several shards (sharding-key.ts), this subquery stands for it: the same merge the
 * engine does, as a GROUP BY over the sort key, which ClickHouse aggregates on the shards and
 * finishes on the server that received the query. For the engines whose merge is a per-column
 * aggregate: SimpleAggregateFunction columns by their function, SummingMergeTree's summed columns
 * by sum, any other column by any (a merge keeps one row's value).
 */
export function mergedRowsSubquery(ctx: RenderContext, table: TablePlacement, viewName: string): string {
  const { definition } = table;
  const fail = (why: string) =>
    new RangeError(
      `View ${viewName} reads ${table.name} FINAL across shards, but ${why}; aggregate it with GROUP BY`,
    );
  if (definition.engine !== 'AggregatingMergeTree' && definition.engine !== 'SummingMergeTree') {
    throw fail(`${definition.engine} has no per-column merge`);
  }
  const columns = definition.columns.filter((c) => !c.alias);
  const names = new Set(columns.map((c) => c.name));
  const key = definition.sortKey;
  if (!key.every((k) => names.has(k)))
    throw fail(`its sort key (${key.join(', ')}) is not a list of columns`);
  const summed = new Set(
    definition.engine === 'SummingMergeTree'
      ? definition.engineArgs
          .filter((t) => t.type === 'BareWord' || t.type === 'QuotedIdentifier')
          .map((t) => t.text.replaceAll('`', ''))
      : [],
  );
  const select = columns.map((c) => {
    if (key.includes(c.name)) return ident(c.name);
    const simple = simpleAggregate(c.type);
    if (simple) return `${simple}(${ident(c.name)}) AS ${ident(c.name)}`;
    if (c.type.startsWith('AggregateFunction(')) throw fail(`${c.name} holds aggregate states`);
    const sums =
      definition.engine === 'SummingMergeTree' && (summed.size ? summed.has(c.name) : NUMERIC.test(c.type));
    return `${sums ? 'sum' : 'any'}(${ident(c.name)}) AS ${ident(c.name)}`;
  });
  return `(SELECT ${select.join(', ')} FROM ${qualified(ctx, table.name)} GROUP BY ${key.map(ident).join(', ')})`;
}
