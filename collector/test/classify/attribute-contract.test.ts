import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { attributes } from '@faultline/instrumentation';
import { describe, expect, it } from 'vitest';

/**
 * One attribute contract: the `faultline.*` names live in instrumentation/src/attributes.ts, which
 * the preload, the collector-side classifier and these tests import. The SQL schema reads them by
 * their literal text, so this checks the two agree in both directions.
 */
const SCHEMA = join(import.meta.dirname, '../../../sql/schema');

/** Every `faultline.*` key a schema file looks up in an attribute map (`SpanAttributes['…']`, `attrs['…']`). */
function keysReadBySchema(): Set<string> {
  const keys = new Set<string>();
  for (const file of readdirSync(SCHEMA).filter((f) => f.endsWith('.sql'))) {
    const sql = readFileSync(join(SCHEMA, file), 'utf8');
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
  const read = keysReadBySchema();

  it('the schema reads keys at all (the pattern still matches its SQL)', () => {
    expect(read.size).toBeGreaterThan(8);
  });

  it('every faultline.* key the schema reads is declared in attributes.ts', () => {
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
