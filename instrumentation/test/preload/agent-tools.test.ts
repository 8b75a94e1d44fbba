import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentApi } from '../fixtures/agents/agent-api.mjs';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { bothWaysRuns, type FixtureResult, runFixture } from './helpers/run-fixture.js';
import { CLIENT, STATUS_ERROR } from './helpers/spans.js';

/**
 * The preload with the real Vercel AI SDK and MCP TypeScript SDK (test/fixtures/agents/, five runs
 * of the scenario: a rate limit waited out, a PostgreSQL 23505, a 404 and a { ok: false }, an MCP
 * isError repeated, an MCP isError then another tool), under --import and --require, ESM and
 * CommonJS: the MCP client's callTool gets a span per call following the GenAI conventions, each
 * failed tool call its envelope from what it threw or returned, and each failure inside a tool the
 * tool, agent and model it happened under. The application's output is unchanged.
 */
const RUNS = bothWaysRuns('agents/agent-runs.mjs', 'agents/agent-runs.cjs');
const PG = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' };
const TABLE = `fl_agent_tools_${process.pid}`;

let api: { url: string; close(): Promise<void> };

beforeAll(async () => {
  api = await startAgentApi();
  const client = new pg.Client(PG);
  await client.connect();
  await client.query(`DROP TABLE IF EXISTS ${TABLE}`);
  await client.query(`CREATE TABLE ${TABLE} (email text PRIMARY KEY)`);
  await client.query(`INSERT INTO ${TABLE} (email) VALUES ('taken@example.com')`);
  await client.end();
});

afterAll(async () => {
  await api?.close();
  const client = new pg.Client(PG);
  await client.connect();
  await client.query(`DROP TABLE IF EXISTS ${TABLE}`);
  await client.end();
});

const attr = (s: ReceivedSpan, key: string) => s.attributes[key];

describe.each(RUNS)('agents under --$mode with $fixture', (run) => {
  let receiver: OtlpReceiver;
  let bare: FixtureResult;
  let preloaded: FixtureResult;
  let spans: ReceivedSpan[];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const tag = `${run.mode}-${run.fixture.replace(/\W/g, '')}-${process.pid}`;
    const env = {
      AGENT_API_URL: api.url,
      AGENT_PG_TABLE: TABLE,
      AGENT_RUNS: 'R01,R09,R14,R15,R16',
      OTEL_SERVICE_NAME: `fl-agents-${run.mode}`,
      OTEL_METRICS_EXPORTER: 'none',
    };
    // Each process its own API state (the run tag): the bare run and the preloaded one meet the same answers.
    [bare, preloaded] = await Promise.all([
      runFixture({ fixture: run.fixture, mode: 'none', env: { ...env, AGENT_RUN_TAG: `bare-${tag}` } }),
      runFixture({
        fixture: run.fixture,
        mode: run.mode,
        env: { ...env, AGENT_RUN_TAG: `pre-${tag}`, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
      }),
    ]);
    spans = receiver.spans;
  }, 60_000);

  afterAll(async () => {
    await receiver?.close();
  });

  it('leaves the application’s output and exit code as they are', () => {
    expect(preloaded.stderr).toBe('');
    expect(preloaded.code).toBe(0);
    expect(preloaded.stdout).toBe(bare.stdout);
    expect(preloaded.stdout.trim().split('\n')).toEqual([
      'R01 get_quote:error get_quote:result',
      'R09 create_user:error create_user:result',
      'R14 get_invoice:error get_invoice:error send_message:result',
      'R15 search_catalog:result search_catalog:result',
      'R16 delete_item:result list_items:result',
    ]);
  });

  it('gives each MCP tools/call a CLIENT span following the GenAI conventions', () => {
    const mcp = spans.filter((s) => s.scope === '@faultline/instrumentation-mcp');
    expect(mcp.map((s) => s.name).sort()).toEqual([
      'tools/call delete_item',
      'tools/call list_items',
      'tools/call search_catalog',
      'tools/call search_catalog',
    ]);
    for (const s of mcp) {
      expect(s.kind).toBe(CLIENT);
      expect(attr(s, 'mcp.method.name')).toBe('tools/call');
      expect(attr(s, 'gen_ai.operation.name')).toBe('execute_tool');
      expect(attr(s, 'gen_ai.tool.name')).toBe(s.name.slice('tools/call '.length));
    }
    const failed = mcp.filter((s) => s.name !== 'tools/call list_items');
    expect(
      failed.map((s) => [
        s.statusCode,
        attr(s, 'error.type'),
        attr(s, 'faultline.class'),
        attr(s, 'faultline.code'),
      ]),
    ).toEqual(
      failed.map((s) =>
        s.name === 'tools/call delete_item'
          ? [STATUS_ERROR, 'tool_error', 'permanent', 'tool_error']
          : [STATUS_ERROR, 'tool_error', 'rate_limit', '429'],
      ),
    );
    expect(
      failed.every((s) => attr(s, 'faultline.retry_after') === (s.name.includes('search') ? 1 : undefined)),
    ).toBe(true);
    const ok = mcp.find((s) => s.name === 'tools/call list_items')!;
    expect([ok.statusCode, attr(ok, 'faultline.class'), attr(ok, 'gen_ai.tool.call.arguments')]).toEqual([
      0,
      undefined,
      '{}',
    ]);
  });

  it('classifies each failed ai.toolCall by what the tool threw or returned', () => {
    const tools = spans.filter((s) => s.name === 'ai.toolCall' && attr(s, 'faultline.class') !== undefined);
    const got = tools.map(
      (s) => `${attr(s, 'ai.toolCall.name')} ${attr(s, 'faultline.class')} ${attr(s, 'faultline.code')}`,
    );
    expect(got.sort()).toEqual(
      [
        'get_quote rate_limit 429',
        'create_user validation 23505',
        'get_invoice permanent 404',
        'get_invoice permanent 404',
        'send_message permanent channel_not_found',
        'search_catalog rate_limit 429',
        'search_catalog rate_limit 429',
        'delete_item permanent tool_error',
      ].sort(),
    );
    // The driver's own error reached the span, not the name and message the AI SDK records.
    const user = tools.find((s) => attr(s, 'ai.toolCall.name') === 'create_user')!;
    expect(String(attr(user, 'faultline.raw'))).toContain('"routine":"_bt_check_unique"');
    // Each one's failure happened in an instrumented call inside it (HTTP, the query, MCP): echoes.
    expect(tools.every((s) => attr(s, 'faultline.propagated') === true)).toBe(true);
    // A tool call whose result reported nothing is left alone.
    const ok = spans.filter((s) => s.name === 'ai.toolCall' && attr(s, 'faultline.class') === undefined);
    expect(ok.map((s) => attr(s, 'ai.toolCall.name')).sort()).toEqual([
      'create_user',
      'get_quote',
      'list_items',
    ]);
  });

  it('names the tool, agent and model on a failure inside a tool, and the model on the tool call', () => {
    const insert = spans.find(
      (s) => s.name.startsWith('pg.query:INSERT') && attr(s, 'faultline.class') !== undefined,
    )!;
    expect([
      attr(insert, 'faultline.tool'),
      attr(insert, 'faultline.agent'),
      attr(insert, 'faultline.model'),
    ]).toEqual(['create_user', 'support-agent', 'mock-large']);
    const quote = spans.find((s) => s.name === 'GET' && attr(s, 'faultline.class') === 'rate_limit')!;
    expect([
      attr(quote, 'faultline.tool'),
      attr(quote, 'faultline.agent'),
      attr(quote, 'faultline.model'),
    ]).toEqual(['get_quote', 'billing-agent', 'mock-large']);
    for (const s of spans.filter((x) => x.name === 'ai.toolCall')) {
      expect(attr(s, 'faultline.model')).toBe(
        attr(s, 'ai.telemetry.metadata.run') === 'R14' ? 'mock-small' : 'mock-large',
      );
      // The AI SDK names the agent on the tool span itself: nothing is copied over it.
      expect(attr(s, 'faultline.agent')).toBeUndefined();
    }
  });
});
