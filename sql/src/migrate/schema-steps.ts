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

/**
 * The schema steps this code knows, in the order they apply. A step's checksum covers its file and
 * the definitions of the functions it calls that other files define (functionsCalled): ClickHouse
 * inlines a function into a view when the view is created, so a changed counting rule (005) must
 * apply every step that uses it again, whose changed views the migrator then creates again.
 */
export function listSchemaSteps(sqlDir: string): SchemaStep[] {
  const files = listSchemaFiles(sqlDir).map((file) => ({
    file,
    text: readFileSync(join(sqlDir, 'schema', file), 'utf8'),
  }));
  const definitions = functionDefinitions(files.map((f) => f.text));
  return files.map(({ file, text }) => {
    const statements = splitStatements(text);
    const called = functionsCalled(statements.join(';\n'), definitions);
    const own = new Set(functionDefinitions([text]).keys());
    const used = [...called].filter((name) => !own.has(name)).sort();
    return {
      kind: 'schema',
      version: Number(file.slice(0, 3)),
      name: file.slice(4, -'.sql'.length),
      file: `sql/schema/${file}`,
      checksum: checksumOf(
        used.length === 0 ? text : [text, ...used.map((n) => definitions.get(n))].join('\n;\n'),
      ),
      statements,
    };
  });
}

const FUNCTION_DEFINITION = /^CREATE\s+OR\s+REPLACE\s+FUNCTION\s+(\w+)\s+AS\b/i;

/** Every `CREATE OR REPLACE FUNCTION name AS …` statement of the texts, by name. */
function functionDefinitions(texts: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const text of texts)
    for (const statement of splitStatements(text)) {
      const name = FUNCTION_DEFINITION.exec(statement)?.[1];
      if (name) out.set(name, statement);
    }
  return out;
}

/** The defined functions `sql` calls, and those their definitions call in turn. */
function functionsCalled(sql: string, definitions: ReadonlyMap<string, string>): Set<string> {
  const found = new Set<string>();
  const pending = [sql];
  while (pending.length > 0) {
    const text = pending.pop()!;
    for (const name of definitions.keys()) {
      if (found.has(name) || !new RegExp(`\\b${name}\\s*\\(`).test(text)) continue;
      found.add(name);
      pending.push(definitions.get(name)!);
    }
  }
  return found;
}

/** The newest schema version this code knows: the highest step number of its sql/schema. */
export function knownSchemaVersion(sqlDir: string): number {
  return Math.max(0, ...listSchemaSteps(sqlDir).map((s) => s.version));
}
