import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { splitStatements } from './split-statements.js';
import { applyTtl } from './ttl-days.js';

const SCHEMA_FILE = /^\d{3}_[A-Za-z0-9_]+\.sql$/;

/** The numbered DDL files of `sql/schema`, in the order they apply. */
export function listSchemaFiles(sqlDir: string): string[] {
  return readdirSync(join(sqlDir, 'schema'))
    .filter((f) => SCHEMA_FILE.test(f))
    .sort();
}

/**
 * Applies every statement of sql/schema/NNN_*.sql in order, then the TTL. Each file is idempotent
 * (IF NOT EXISTS, MODIFY SETTING), so this runs at every start.
 */
export async function applySchema(
  client: ClickHouseClient,
  sqlDir: string,
  options: { ttlDays: number },
): Promise<string[]> {
  const files = listSchemaFiles(sqlDir);
  for (const file of files) {
    const text = readFileSync(join(sqlDir, 'schema', file), 'utf8');
    for (const statement of splitStatements(text)) {
      try {
        await client.command({ query: statement });
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new Error(`Applying sql/schema/${file} failed: ${reason}`, { cause: err });
      }
    }
  }
  await applyTtl(client, options.ttlDays);
  return files;
}
