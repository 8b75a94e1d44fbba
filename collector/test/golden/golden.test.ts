import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { postTraces } from '../receiver/helpers/otlp-client.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';
import { otlpJsonToProtobuf } from './otlp-json-to-protobuf.js';

// Golden cases: cases/<name>.json holds an OTLP/JSON request and the expected answer;
// cases/<name>.expected.json the rows ClickHouse then holds in otel_traces and failures.
// Each case runs twice, as JSON and as protobuf, against the same expected rows.
// UPDATE_GOLDEN=1 rewrites the expected files (review the diff before committing).

interface GoldenCase {
  description: string;
  input: Record<string, unknown>;
  response: { status: number; json: unknown };
}

const CASES = join(import.meta.dirname, 'cases');
const names = readdirSync(CASES)
  .filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .sort();

let ts: TestStore;
let collector: Collector;

beforeAll(async () => {
  ts = await openTestStore('golden');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 5 },
  });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

/** Trace ids in a case, so each encoding's run gets its own (mapped back before comparing). */
function traceIds(text: string): string[] {
  return [...new Set(text.match(/"traceId": ?"([0-9a-f]{32})"/g)?.map((m) => m.slice(-33, -1)) ?? [])].filter(
    (id) => !/^0+$/.test(id),
  );
}

function swap(text: string, from: string[], to: string[]): string {
  let out = text;
  from.forEach((id, i) => {
    out = out.split(id).join(to[i]!);
  });
  return out;
}

// Read-back for comparison: nanosecond integers instead of time-zone dependent DateTime64 text.
const READ_BACK = {
  otel_traces: `SELECT * REPLACE (
      toString(toUnixTimestamp64Nano(Timestamp)) AS Timestamp,
      arrayMap(t -> toString(toUnixTimestamp64Nano(t)), \`Events.Timestamp\`) AS \`Events.Timestamp\`)
    FROM otel_traces WHERE TraceId IN {ids:Array(String)} ORDER BY TraceId, SpanId`,
  failures: `SELECT * REPLACE (toString(toUnixTimestamp64Nano(Timestamp)) AS Timestamp)
    FROM failures WHERE TraceId IN {ids:Array(String)} ORDER BY TraceId, SpanId`,
} as const;

async function readBack(store: Store, ids: string[]) {
  const out: Record<string, unknown[]> = {};
  for (const [table, sql] of Object.entries(READ_BACK))
    out[table] = (await store.runReadOnly(sql, { ids })).rows;
  return out;
}

describe.each(names)('golden %s', (name) => {
  const text = readFileSync(join(CASES, `${name}.json`), 'utf8');
  const expectedFile = join(CASES, `${name}.expected.json`);
  const ids = traceIds(text);

  it.each(['json', 'protobuf'] as const)('as %s', async (encoding) => {
    const runIds = ids.map((id) => `${encoding === 'json' ? 'a' : 'b'}${id.slice(1)}`);
    const goldenCase = JSON.parse(swap(text, ids, runIds)) as GoldenCase;
    const body =
      encoding === 'json' ? JSON.stringify(goldenCase.input) : otlpJsonToProtobuf(goldenCase.input);
    const contentType = encoding === 'json' ? 'application/json' : 'application/x-protobuf';
    const res = await postTraces(collector.url, body, { 'content-type': contentType });
    expect(res.status).toBe(goldenCase.response.status);
    if (encoding === 'json') expect(JSON.parse(res.body.toString())).toEqual(goldenCase.response.json);

    await collector.writer.settle();
    const actual = JSON.parse(swap(JSON.stringify(await readBack(ts.store, runIds)), runIds, ids));
    if (process.env.UPDATE_GOLDEN === '1' && encoding === 'json') {
      writeFileSync(expectedFile, `${JSON.stringify(actual, null, 2)}\n`);
    }
    expect(existsSync(expectedFile), `${expectedFile} missing: run with UPDATE_GOLDEN=1 and review it`).toBe(
      true,
    );
    expect(actual).toEqual(JSON.parse(readFileSync(expectedFile, 'utf8')));
  });
});
