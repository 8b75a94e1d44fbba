import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const SCHEMA_FILE = /^\d{3}_[A-Za-z0-9_]+\.sql$/;

/** The numbered DDL files of `sql/schema`, in the order they apply. */
export function listSchemaFiles(sqlDir: string): string[] {
  return readdirSync(join(sqlDir, 'schema'))
    .filter((f) => SCHEMA_FILE.test(f))
    .sort();
}
