import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { resolveSqlDir } from '../../src/index.js';
import type { Store, TraceRow } from '../../src/types.js';

// The exporter's 22 columns, positional, from sql/compat (the SQL stays in sql/).
export const EXPORTER_INSERT = readFileSync(
  join(resolveSqlDir(), 'compat', 'exporter_traces_insert.sql'),
  'utf8',
)
  .split('\n')
  .filter((l) => !l.startsWith('--'))
  .join('\n')
  .trim();

export const EXPORTER_COLUMNS = EXPORTER_INSERT.slice(
  EXPORTER_INSERT.indexOf('(') + 1,
  EXPORTER_INSERT.indexOf(')'),
)
  .split(',')
  .map((c) => c.trim());

function positional(row: TraceRow): unknown[] {
  return EXPORTER_COLUMNS.map((c) => row[c as keyof TraceRow]);
}

/** Inserts rows the way the contrib ClickHouse exporter does: its own INSERT, positional values. */
export async function insertAsExporter(store: Store, batch: TraceRow[]): Promise<void> {
  await store.client.exec({
    query: EXPORTER_INSERT,
    values: Readable.from([batch.map((r) => JSON.stringify(positional(r))).join('\n')]),
  });
}
