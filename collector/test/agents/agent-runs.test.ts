import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentRun, RUNS } from '../../../instrumentation/test/fixtures/agents/scenario.cjs';
import { type Collector, startCollector } from '../../src/index.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';
import { sendAgentScenario } from './send-agent-scenario.mjs';

/**
 * Agents' tool calls end to end (issue 32): the real Vercel AI SDK (`ai` 5, a mock model scripted
 * step by step, telemetry on) and the real MCP TypeScript SDK (client and server in process), with
 * tools calling a local HTTP API (429 + Retry-After, 401, 422 problem+json, 503, 404, 200 with
 * { ok: false }), PostgreSQL (a 23505) and the MCP server (isError), export to a real collector,
 * once under the Faultline preload and once under stock OpenTelemetry (NodeSDK with
 * getNodeAutoInstrumentations(), no preload). The scenario's truth is counted by construction
 * (instrumentation/test/fixtures/agents/scenario.cjs): 16 runs, 26 failed tool calls, 13 right
 * next actions, 9 wrong, 4 the policy says nothing of. Each failure's class and tool, and each next
 * action and verdict, must equal it in both setups; no right action may be flagged.
 */
const TOKEN = 'agent-runs-token-0123456789abcdef';

const SCENARIO: AgentRun[] = RUNS;

let ts: TestStore;
let collector: Collector;
const range = {
  from: new Date(Date.now() - 3_600_000).toISOString().slice(0, 19).replace('T', ' '),
  to: new Date(Date.now() + 3_600_000).toISOString().slice(0, 19).replace('T', ' '),
};

beforeAll(async () => {
  ts = await openTestStore('agent-runs');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    token: TOKEN,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 10 },
  });
});

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

/** Runs the scenario in a child process (send-agent-scenario.mjs); returns its service name. */
async function runScenario(mode: 'preload' | 'stock'): Promise<string> {
  const service = `agents-${mode}-${process.pid}`;
  const child = await sendAgentScenario({
    otlpUrl: collector.url,
    service,
    mode,
    token: TOKEN,
    tag: `${mode}-${process.pid}`,
  });
  expect(child.stderr).toBe('');
  expect(child.stdout.trim().split('\n')).toHaveLength(16);
  await collector.writer.settle();
  return service;
}

interface Judgement {
  run: string;
  tool: string;
  agent: string;
  model: string;
  class: string;
  action: string;
  verdict: string;
  retry_after: number | null;
}

async function judgements(service: string): Promise<Judgement[]> {
  const { rows } = await ts.store.runReadOnly<Judgement>(
    `SELECT r.run AS run, a.tool AS tool, a.agent AS agent, a.model AS model, a.class AS class,
       a.action AS action, a.verdict AS verdict, a.retry_after AS retry_after
     FROM agent_actions(from = {from:DateTime}, to = {to:DateTime}) AS a
     JOIN (SELECT TraceId, any(SpanAttributes['ai.telemetry.metadata.run']) AS run FROM otel_traces
           WHERE ServiceName = {s:String} AND SpanAttributes['ai.telemetry.metadata.run'] != ''
           GROUP BY TraceId) AS r ON r.TraceId = a.TraceId
     WHERE a.ServiceName = {s:String}
     ORDER BY run, a.Timestamp`,
    { ...range, s: service },
  );
  return rows;
}

interface ToolFailure {
  SpanName: string;
  tool: string;
  agent: string;
  model: string;
  class: string;
  code: string;
  propagated: boolean;
}

async function toolFailures(service: string, spanName: string): Promise<ToolFailure[]> {
  const { rows } = await ts.store.runReadOnly<ToolFailure>(
    `SELECT SpanName, tool, agent, model, class, code, propagated FROM failures
     WHERE ServiceName = {s:String} AND SpanName = {n:String} ORDER BY Timestamp`,
    { s: service, n: spanName },
  );
  return rows;
}

const truth = () =>
  SCENARIO.flatMap((s) =>
    s.failures.map(([tool, cls, action, verdict]) => [s.run, tool, cls, action, verdict]),
  );
const count = (verdict: string) => truth().filter((t) => t[4] === verdict).length;

describe.each(['preload', 'stock'] as const)('agent runs under %s', (mode) => {
  let service: string;
  let judged: Judgement[];

  beforeAll(async () => {
    service = await runScenario(mode);
    judged = await judgements(service);
  }, 90_000);

  it('judges each failed tool call’s next action as the scenario’s truth says', () => {
    expect(truth()).toHaveLength(26);
    expect([count('right'), count('wrong'), count('none')]).toEqual([13, 9, 4]);
    expect(judged.map((j) => [j.run, j.tool, j.class, j.action, j.verdict])).toEqual(truth());
    // Right actions are not flagged: every wrong verdict is one the truth calls wrong.
    expect(judged.filter((j) => j.verdict === 'wrong')).toHaveLength(9);
  });

  it('names each failed call’s agent and model (the run’s model where the tool span names none)', () => {
    const expected = SCENARIO.flatMap((s) => s.failures.map(() => [s.run, s.agent, s.model]));
    expect(judged.map((j) => [j.run, j.agent, j.model])).toEqual(expected);
    // Retry-After reached the judgement: the rate limits said 1 s, whether the tool threw it
    // (its error's retryAfter, or its message) or the MCP server wrote it in its text.
    expect(new Set(judged.filter((j) => j.class === 'rate_limit').map((j) => j.retry_after))).toEqual(
      new Set([1]),
    );
  });

  it('files every failed tool call as a failure row with its class, tool, agent and model', async () => {
    const rows = await toolFailures(service, 'ai.toolCall');
    const expected = SCENARIO.flatMap((s) => s.failures.map(([tool, cls]) => [tool, cls, s.agent, s.model]));
    const got = rows.map((r) => [r.tool, r.class, r.agent, r.model]);
    // Sorted: a run's failures are in time order, runs are not (each row is one trace's).
    expect(got.map((r) => r.join(' ')).sort()).toEqual(expected.map((r) => r.join(' ')).sort());
  });

  it('classifies each kind of failure by what it carries', async () => {
    const rows = await toolFailures(service, 'ai.toolCall');
    const codes = Object.fromEntries(rows.map((r) => [r.tool, `${r.class} ${r.code}`]));
    expect(codes).toEqual({
      get_quote: 'rate_limit 429', // thrown: status and retryAfter (preload), or the message (stock)
      get_profile: 'authentication 401',
      create_order: 'validation 422', // returned: an RFC 9457 problem body
      create_user: 'validation 23505', // thrown by pg: the SQLSTATE, or the server's text
      get_report: 'transient 503',
      get_invoice: 'permanent 404', // thrown: "HTTP 404 Not Found", the message alone
      send_message: 'permanent channel_not_found', // returned: { ok: false, error }
      search_catalog: 'rate_limit 429', // MCP isError: "… retry after 1 s (HTTP 429)"
      delete_item: 'permanent tool_error', // MCP isError: "item 42 not found"
    });
  });

  it('keeps the tool’s name on the echo of a failure inside the tool, and on the first-hand failure', async () => {
    const { rows } = await ts.store.runReadOnly<{ SpanName: string; tool: string }>(
      `SELECT SpanName, tool FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
       WHERE ServiceName = {s:String} ORDER BY tool, SpanName`,
      { ...range, s: service },
    );
    const firstHand = new Map<string, Set<string>>();
    for (const r of rows) firstHand.set(r.tool, (firstHand.get(r.tool) ?? new Set()).add(r.SpanName));
    // An instrumented call inside the tool failed first (the HTTP request, the query): the tool
    // call is its echo, and the first-hand row names the tool. Under the preload the MCP client's
    // tools/call is such a call; stock OpenTelemetry has no span for it, so the tool call stays
    // first-hand. send_message's HTTP call answered 200 with { ok: false }: the preload reads the
    // body and files the call, stock OpenTelemetry sees a success and the tool call is first-hand.
    const mcp = mode === 'preload' ? 'tools/call' : 'ai.toolCall';
    expect(Object.fromEntries([...firstHand].map(([tool, names]) => [tool, [...names].sort()]))).toEqual({
      create_order: ['POST'],
      create_user: ['pg.query:INSERT test'],
      delete_item: [mode === 'preload' ? 'tools/call delete_item' : mcp],
      get_invoice: ['GET'],
      get_profile: ['GET'],
      get_quote: ['GET'],
      get_report: ['GET'],
      search_catalog: [mode === 'preload' ? 'tools/call search_catalog' : mcp],
      send_message: [mode === 'preload' ? 'POST' : 'ai.toolCall'],
    });
    const tools = await toolFailures(service, 'ai.toolCall');
    expect(tools.filter((r) => r.propagated).length).toBe(mode === 'preload' ? 26 : 0);
  });

  it('counts an MCP tools/call under one source, tool, whether it succeeded or failed', async () => {
    // Under the preload each MCP callTool is a CLIENT span: R15's two search_catalog calls and
    // R16's delete_item failed (isError results, one stating "HTTP 429"), R16's list_items
    // succeeded. Before, the success went under '' and the 429 under http. Stock OpenTelemetry
    // has no MCP span.
    const mcpTools = new Set(['search_catalog', 'delete_item', 'list_items']);
    const calls = SCENARIO.flatMap((s) => s.steps.filter(([tool]) => mcpTools.has(tool))).length;
    const failed = truth().filter((t) => mcpTools.has(String(t[1]))).length;
    expect([calls, failed]).toEqual([4, 3]);
    const { rows } = await ts.store.runReadOnly<{ source: string; calls: number; failures: number }>(
      `SELECT source, sum(calls) AS calls, sum(failures) AS failures FROM calls_1m
       WHERE ServiceName = {s:String} AND SpanKind = 'Client' AND source NOT IN ('http', 'db')
       GROUP BY source ORDER BY source`,
      { s: service },
    );
    expect(rows.map((r) => [r.source, Number(r.calls), Number(r.failures)])).toEqual(
      mode === 'preload' ? [['tool', calls, failed]] : [],
    );
  });

  it('flags no request of a later tool call as a misrouted retry of an earlier one', async () => {
    // A repaired body to the same URL (R07), a replay after refresh_token (R04, R05, R06): the
    // agent's next decisions, judged by agent_actions, not retries of the HTTP call before them.
    // The identical repeats (R02, R08, R10, R14) are judged wrong there, once, at the tool call.
    const { rows } = await ts.store.runReadOnly<{ n: number; retries: number }>(
      `SELECT countIf(misrouted_retry) AS n, countIf(attempt > 1) AS retries FROM failures WHERE ServiceName = {s:String}`,
      { s: service },
    );
    expect([Number(rows[0]!.n), Number(rows[0]!.retries)]).toEqual([0, 0]);
  });
});

describe('the agents/ named queries over both runs', () => {
  it('agent_compliance_by_class: the scenario’s right and wrong per class, twice', async () => {
    const { rows } = await ts.store.runNamed<Record<string, unknown>>('agents/agent_compliance_by_class', {
      ...range,
      service: '',
      agent: '',
    });
    const byClass = Object.fromEntries(
      rows.map((r) => [r.class, [r.right_actions, r.wrong_actions, r.unjudged]]),
    );
    const per = (cls: string, verdict: string) =>
      2 * truth().filter((t) => t[2] === cls && t[4] === verdict).length;
    for (const cls of ['rate_limit', 'authentication', 'validation', 'transient', 'permanent'])
      expect(byClass[cls], cls).toEqual([per(cls, 'right'), per(cls, 'wrong'), per(cls, 'none')]);
  });
});
