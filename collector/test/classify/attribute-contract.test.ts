import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { attributes } from '@faultline/instrumentation';
import { describe, expect, it } from 'vitest';

/**
 * One attribute contract: the `faultline.*` names live in
 * instrumentation/src/envelope/attribute-names.ts, which the preload, the collector-side classifier
 * and these tests import. The SQL schema reads them by their literal text, so this checks the two
 * agree in both directions.
 */
const SQL = join(import.meta.dirname, '../../../sql');

/** The .sql files under a folder of sql/, subfolders included (sql/queries/dashboard, …). */
function sqlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const path = join(dir, f);
    return statSync(path).isDirectory() ? sqlFiles(path) : f.endsWith('.sql') ? [path] : [];
  });
}

/**
 * Every `faultline.*` key the schema files, or the named queries, look up in an attribute map
 * (`SpanAttributes['…']`, `attrs['…']`).
 */
function keysRead(folder: 'schema' | 'queries'): Set<string> {
  const keys = new Set<string>();
  for (const file of sqlFiles(join(SQL, folder))) {
    const sql = readFileSync(file, 'utf8');
    for (const m of sql.matchAll(
      /\[\s*'(faultline\.[a-z_.]+)'\s*\]|mapContains\(\w+,\s*'(faultline\.[a-z_.]+)'\)/g,
    ))
      keys.add((m[1] ?? m[2])!);
  }
  return keys;
}

const declared = new Set(
  Object.entries(attributes)
    .filter(([name, value]) => name.startsWith('ATTR_') && typeof value === 'string')
    .map(([, value]) => value as string),
);

describe('faultline.* attribute contract', () => {
  const read = keysRead('schema');
  const readByQueries = keysRead('queries');

  it('the schema and the named queries read keys at all (the pattern still matches their SQL)', () => {
    expect(read.size).toBeGreaterThan(8);
    expect(readByQueries.size).toBeGreaterThan(8);
  });

  it('every faultline.* key a named query (sql/queries) reads is declared', () => {
    expect([...readByQueries].filter((k) => !declared.has(k))).toEqual([]);
  });

  it('every faultline.* key the schema reads is declared in attribute-names.ts', () => {
    expect([...read].filter((k) => !declared.has(k))).toEqual([]);
  });

  it('every envelope attribute is read by the schema', () => {
    expect(attributes.ENVELOPE_ATTRIBUTES.filter((k) => !read.has(k))).toEqual([]);
  });

  it('the envelope attributes are the envelope fields, under faultline.*', () => {
    expect(attributes.ENVELOPE_ATTRIBUTES.map((k) => k.replace(/^faultline\./, ''))).toEqual([
      'class',
      'source',
      'code',
      'message',
      'retryable',
      'retry_after',
      'correlation_id',
      'raw',
    ]);
  });
});
