import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSchemaFiles } from '../ddl/schema-files.js';
import { splitStatements } from '../lexer/split-statements.js';

/** One numbered file of sql/schema: quick, idempotent DDL (CREATE … IF NOT EXISTS, ALTER … IF NOT EXISTS). */
export interface SchemaStep {
  kind: 'schema';
  version: number;
  /** The file name without its number and extension, e.g. `failures`. */
  name: string;
  file: string;
  checksum: string;
  statements: string[];
}

const checksumOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** The schema steps this code knows, in the order they apply. */
export function listSchemaSteps(sqlDir: string): SchemaStep[] {
  return listSchemaFiles(sqlDir).map((file) => {
    const text = readFileSync(join(sqlDir, 'schema', file), 'utf8');
    return {
      kind: 'schema',
      version: Number(file.slice(0, 3)),
      name: file.slice(4, -'.sql'.length),
      file: `sql/schema/${file}`,
      checksum: checksumOf(text),
      statements: splitStatements(text),
    };
  });
}

/** The newest schema version this code knows: the highest step number of its sql/schema. */
export function knownSchemaVersion(sqlDir: string): number {
  return Math.max(0, ...listSchemaSteps(sqlDir).map((s) => s.version));
}
