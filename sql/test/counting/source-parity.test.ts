import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sourceOf } from '@faultline/instrumentation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { openStore } from '../../src/index.js';
import type { Store } from '../../src/types.js';
import { dateTime64, makeRow } from '../support/trace-row-fixture.js';
import { SPAN_SHAPES } from './span-shapes.js';

/**
 * The span-source rule has two homes by necessity: the preload counts a call under sourceOf
 * (@faultline/instrumentation), and every view of the schema files it under faultline_source
 * (sql/schema/005_functions.sql). Both run here over the same span shapes; any disagreement fails.
 */
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

let dir: string;
let store: Store;

async function rows<T>(query: string): Promise<T[]> {
  const rs = await store.client.query({ query, format: 'JSONEachRow' });
  return (await rs.json()) as T[];
}

/** The TypeScript rule: the envelope's source, else what the attributes imply ('' for none). */
const tsSource = (attrs: Record<string, string>) => attrs['faultline.source'] || sourceOf(attrs) || '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-source-parity-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(
    store.client,
    serializeRows(
      SPAN_SHAPES.map((shape, i) =>
        makeRow({
          Timestamp: dateTime64(T0 + i * 1000),
          ServiceName: shape.id,
          SpanName: shape.id,
          SpanKind: shape.kind,
          SpanAttributes: shape.attrs,
          StatusCode: shape.attrs['faultline.class'] ? 'Error' : 'Unset',
        }),
      ),
    ),
  );
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('span source: TypeScript sourceOf and SQL faultline_source agree', () => {
  it('on every span shape (stock JS, Python, Java, Go, .NET, the preload)', async () => {
    const sql = await rows<{ id: string; semconv: string; source: string }>(
      'SELECT SpanName AS id, faultline_semconv_source(SpanAttributes) AS semconv, faultline_source(SpanAttributes) AS source FROM otel_traces ORDER BY id',
    );
    const byId = new Map(sql.map((r) => [r.id, r]));
    const disagreements = SPAN_SHAPES.flatMap((shape) => {
      const r = byId.get(shape.id);
      const ts = { semconv: sourceOf(shape.attrs) ?? '', source: tsSource(shape.attrs) };
      return r && r.semconv === ts.semconv && r.source === ts.source
        ? []
        : [{ id: shape.id, ts, sql: r && { semconv: r.semconv, source: r.source } }];
    });
    expect(disagreements).toEqual([]);
    expect(byId.size).toBe(SPAN_SHAPES.length);
  });

  it('files what the rule corrected as the TypeScript rule does', async () => {
    // The cases where the schema's earlier rule (db.system before aws-api, no rpc.system.name, any
    // http.* key) disagreed: a stock DynamoDB span is the AWS SDK's, success or failure.
    const expected: Record<string, string> = {
      'js-aws-sdk-dynamodb': 'sdk',
      'python-botocore-dynamodb': 'sdk',
      'java-aws-sdk2-dynamodb': 'sdk',
      'dotnet-aws-dynamodb': 'sdk',
      'go-otelaws-dynamodb-rpc-system-name': 'sdk',
      'go-otelgrpc-rpc-system-name': 'rpc',
      'http-without-method': '',
    };
    const shapes = SPAN_SHAPES.filter((s) => s.id in expected);
    expect(Object.fromEntries(shapes.map((s) => [s.id, sourceOf(s.attrs) ?? '']))).toEqual(expected);
  });

  it('the calls rollups count each call under it, and its failure row is filed under it', async () => {
    const counted = await rows<{ id: string; source: string; dep_source: string }>(
      `SELECT c.ServiceName AS id, c.source AS source, d.source AS dep_source
       FROM (SELECT ServiceName, any(source) AS source FROM calls_1m GROUP BY ServiceName) AS c
       LEFT JOIN (SELECT ServiceName, any(source) AS source FROM dependency_calls_1m GROUP BY ServiceName) AS d
         ON d.ServiceName = c.ServiceName
       ORDER BY id`,
    );
    // Calls: CLIENT and SERVER spans and spans with an envelope source, never a transport request.
    const calls = SPAN_SHAPES.filter(
      (s) =>
        (s.attrs['faultline.source'] || s.kind === 'Client' || s.kind === 'Server') &&
        !s.attrs['faultline.call_role'],
    );
    expect(counted).toEqual(
      calls
        .map((s) => ({ id: s.id, source: tsSource(s.attrs), dep_source: tsSource(s.attrs) }))
        .sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    const failures = await rows<{ id: string; source: string }>(
      'SELECT ServiceName AS id, source FROM failures ORDER BY id',
    );
    expect(failures).toEqual(
      SPAN_SHAPES.filter((s) => s.attrs['faultline.class']).map((s) => ({
        id: s.id,
        source: tsSource(s.attrs),
      })),
    );
    // The preload's DynamoDB call: its success and its failure are under one source.
    expect(counted.filter((r) => r.id.startsWith('preload-dynamodb-')).map((r) => r.source)).toEqual([
      'sdk',
      'sdk',
    ]);
  });
});
