import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { listSchemaFiles } from '../ddl/schema-files.js';
import { applyTtl } from '../ddl/ttl-days.js';
import { splitStatements } from '../lexer/split-statements.js';

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
