import { createHash } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { readHead } from '../cluster/statement-head.js';
import { isKeyword, join, nextWord, tokenize } from '../lexer/sql-tokens.js';

/**
 * A view's definition as ClickHouse holds it: the SELECT it stores (`system.tables.as_select`),
 * with every SQL function already inlined (ClickHouse expands them when the view is created). So two
 * definitions are the same rule exactly when these texts are equal, and a changed function shows as
 * a changed text here without any view being touched.
 */
export async function viewSelects(
  client: ClickHouseClient,
  names: readonly string[],
): Promise<Map<string, string>> {
  const rs = await client.query({
    query:
      'SELECT name, as_select FROM system.tables WHERE database = currentDatabase() AND name IN {names:Array(String)}',
    query_params: { names },
    format: 'JSONEachRow',
  });
  const rows = (await rs.json()) as { name: string; as_select: string }[];
  return new Map(rows.map((r) => [r.name, r.as_select]));
}

/** One checksum of the views' stored SELECTs in order; '' when one of them does not exist. */
export function viewsChecksum(views: readonly string[], selects: ReadonlyMap<string, string>): string {
  const texts = views.map((v) => selects.get(v));
  if (texts.some((t) => t === undefined)) return '';
  return createHash('sha256').update(texts.join('\n;\n')).digest('hex').slice(0, 16);
}

/** `CREATE MATERIALIZED VIEW [IF NOT EXISTS] name TO target AS <select>` of a schema file, read. */
export function materializedViewOf(statement: string): { name: string; select: string } | undefined {
  const tokens = tokenize(statement);
  const head = readHead(tokens);
  if (head?.verb !== 'CREATE' || head.object !== 'MATERIALIZED VIEW') return undefined;
  for (let i = nextWord(tokens, head.afterName); i < tokens.length; i = nextWord(tokens, i + 1)) {
    if (isKeyword(tokens[i], 'AS')) return { name: head.name, select: join(tokens.slice(i + 1)).trim() };
  }
  return undefined;
}

/**
 * The SELECT ClickHouse would store for `select` today (its functions inlined as now defined): a
 * plain view of it is created under a scratch name, read back and dropped. A plain view stores the
 * same text a materialized view of the same SELECT does.
 */
export async function currentSelectOf(client: ClickHouseClient, select: string): Promise<string> {
  const probe = `faultline_migrate_probe_${process.pid}`;
  await client.command({ query: `CREATE OR REPLACE VIEW ${probe} AS ${select}` });
  try {
    return (await viewSelects(client, [probe])).get(probe) ?? '';
  } finally {
    await client.command({ query: `DROP VIEW IF EXISTS ${probe}` });
  }
}
