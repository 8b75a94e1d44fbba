import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countingRules, sourceOf } from '@faultline/instrumentation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { openStore } from '../../src/index.js';
import type { Store } from '../../src/types.js';
import { dateTime64, makeRow } from '../support/trace-row-fixture.js';

/**
 * An agent's tool call is counted and filed under one source whether it succeeds or fails (issue
 * 32). The preload's MCP `tools/call` span states only the tool on success (no semconv attribute
 * implied a source: calls_1m filed it under ''), while its failure carries the envelope of what the
 * result reported — an isError text "retry after 1 s (HTTP 429)" is an http 429 — so the same tool's
 * calls were split between '' and 'http' (and its failure rate per source was 100%). Both rules,
 * faultline_source (SQL) and spanSourceOf (TypeScript), now file a tool call under `tool`; the
 * envelope keeps what it says failed.
 */
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

const MCP = {
  'mcp.method.name': 'tools/call',
  'gen_ai.operation.name': 'execute_tool',
  'gen_ai.tool.name': 'search_catalog',
  'gen_ai.tool.call.arguments': '{"query":"bolts"}',
};
const AI_SDK = {
  'ai.operationId': 'ai.toolCall',
  'ai.toolCall.name': 'create_user',
  'ai.toolCall.args': '{"email":"taken@example.com"}',
};

/** Each span as it is stored: the preload's attributes, the collector's derived ones added. */
const SPANS = [
  // A success: no envelope, and no semconv attribute implies a source.
  { id: 'mcp-success', kind: 'Client', status: 'Unset', attrs: MCP },
  {
    id: 'mcp-failure',
    kind: 'Client',
    status: 'Error',
    attrs: {
      ...MCP,
      'error.type': 'tool_error',
      'faultline.class': 'rate_limit',
      'faultline.source': 'http',
      'faultline.code': '429',
      'faultline.retryable': 'true',
      'faultline.retry_after': '1',
    },
  },
  // Stored by another pipeline that stamped a source of its own on the success.
  {
    id: 'mcp-success-stamped',
    kind: 'Client',
    status: 'Unset',
    attrs: { ...MCP, 'faultline.source': 'rpc' },
  },
  {
    id: 'ai-sdk-failure',
    kind: 'Internal',
    status: 'Error',
    attrs: {
      ...AI_SDK,
      'faultline.class': 'validation',
      'faultline.source': 'db',
      'faultline.code': '23505',
      'faultline.retryable': 'false',
    },
  },
] as const;

let dir: string;
let store: Store;

async function rows<T>(query: string): Promise<T[]> {
  const rs = await store.client.query({ query, format: 'JSONEachRow' });
  return (await rs.json()) as T[];
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-tool-source-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(
    store.client,
    serializeRows(
      SPANS.map((s, i) =>
        makeRow({
          Timestamp: dateTime64(T0 + i * 1000),
          ServiceName: 'agents',
          SpanName: s.id,
          SpanKind: s.kind,
          SpanAttributes: s.attrs,
          StatusCode: s.status,
        }),
      ),
    ),
  );
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a tool call's source", () => {
  it('is tool in the TypeScript rules, success or failure', () => {
    expect(SPANS.map((s) => [s.id, countingRules.spanSourceOf(s.attrs)])).toEqual(
      SPANS.map((s) => [s.id, 'tool']),
    );
    // What the attributes imply is unchanged (the envelope of a failure is classified under it).
    expect([sourceOf(MCP), sourceOf(AI_SDK)]).toEqual([undefined, undefined]);
  });

  it('is tool in the SQL rules, as in TypeScript', async () => {
    const sql = await rows<{ id: string; source: string; semconv: string }>(
      `SELECT SpanName AS id, faultline_source(SpanAttributes) AS source,
              faultline_semconv_source(SpanAttributes) AS semconv
       FROM otel_traces ORDER BY Timestamp`,
    );
    expect(sql).toEqual(
      SPANS.map((s) => ({ id: s.id, source: countingRules.spanSourceOf(s.attrs), semconv: '' })),
    );
  });

  it("counts the MCP tool's successes and failures under one source in calls_1m", async () => {
    const calls = await rows<{ source: string; calls: number; failures: number }>(
      `SELECT source, sum(calls) AS calls, sum(failures) AS failures
       FROM calls_1m WHERE SpanKind = 'Client' GROUP BY source ORDER BY source`,
    );
    expect(calls).toEqual([{ source: 'tool', calls: 3, failures: 1 }]);
  });

  it('files each failed tool call under tool', async () => {
    const failures = await rows<{ SpanName: string; source: string; code: string }>(
      'SELECT SpanName, source, code FROM failures ORDER BY Timestamp',
    );
    expect(failures).toEqual([
      { SpanName: 'mcp-failure', source: 'tool', code: '429' },
      { SpanName: 'ai-sdk-failure', source: 'tool', code: '23505' },
    ]);
  });
});
