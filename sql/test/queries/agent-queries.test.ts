import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { listNamedQueries, openStore } from '../../src/index.js';
import type { Store, TraceRow } from '../../src/types.js';
import { dateTime64, makeRow } from '../support/trace-row-fixture.js';

// Two agent runs, span by span as the AI SDK exports them (ground truth by hand):
// run A (billing-agent; the model, gpt-x, only on its generateText span):
//   1.0  get_quote {"s":"A"}   429 retry_after 2, its HTTP request below failed first
//   1.5  get_quote {"s":"A"}   429 again: waited 0.4 s of 2 ................ identical_repeat WRONG
//   4.0  get_quote {"s":"A"}   ok: waited 2.4 s ................................ wait_repeat RIGHT
//   5.0  create_order {"q":0}  422
//   5.5  create_order {"q":1}  422 again: the first repair ................. changed_repeat RIGHT
//   6.0  create_order {"q":2}  ok: a second repair ......................... changed_repeat WRONG
//   7.0  search {"x":1}        tool error (an MCP tools/call inside it failed) ..... stop RIGHT
// run B (support-agent, gpt-y):
//   1.0  get_report {"id":7}   503
//   2.0  send_message {}       ok: the transient failure never retried ......... other_tool WRONG
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);
const RANGE = { from: '2026-11-29 12:00:00', to: '2026-11-29 13:00:00' };
const A = 'aa'.repeat(16);
const B = 'bb'.repeat(16);

function span(
  trace: string,
  id: string,
  parent: string,
  startS: number,
  durationS: number,
  kind: string,
  name: string,
  attrs: Record<string, string>,
): TraceRow {
  return makeRow({
    Timestamp: dateTime64(T0 + startS * 1000),
    TraceId: trace,
    SpanId: id.padStart(16, '0'),
    ParentSpanId: parent === '' ? '' : parent.padStart(16, '0'),
    ServiceName: 'agents',
    SpanKind: kind,
    SpanName: name,
    Duration: Math.round(durationS * 1e9),
    StatusCode: attrs['faultline.class'] ? 'Error' : 'Unset',
    SpanAttributes: attrs,
  });
}

const failed = (cls: string, code: string, retryAfter?: number) => ({
  'faultline.class': cls,
  'faultline.source': 'tool',
  'faultline.code': code,
  'faultline.retryable': String(cls === 'rate_limit' || cls === 'transient'),
  ...(retryAfter === undefined ? {} : { 'faultline.retry_after': String(retryAfter) }),
});

function toolCall(
  trace: string,
  id: string,
  startS: number,
  agent: string,
  tool: string,
  args: string,
  more = {},
) {
  return span(trace, id, '1', startS, 0.1, 'Internal', 'ai.toolCall', {
    'ai.operationId': 'ai.toolCall',
    'ai.toolCall.name': tool,
    'ai.toolCall.args': args,
    'ai.telemetry.functionId': agent,
    ...more,
  });
}

function runs(): TraceRow[] {
  const generate = (trace: string, agent: string, model: string) =>
    span(trace, '1', '', 0, 9, 'Internal', 'ai.generateText', {
      'ai.operationId': 'ai.generateText',
      'ai.model.id': model,
      'ai.telemetry.functionId': agent,
    });
  return [
    generate(A, 'billing-agent', 'gpt-x'),
    toolCall(A, 'a1', 1.0, 'billing-agent', 'get_quote', '{"s":"A"}', failed('rate_limit', '429', 2)),
    span(A, 'a1h', 'a1', 1.01, 0.05, 'Client', 'GET', {
      'http.request.method': 'GET',
      ...failed('rate_limit', '429', 2),
      'faultline.source': 'http',
      'faultline.tool': 'get_quote',
      'faultline.agent': 'billing-agent',
      'faultline.model': 'gpt-x',
    }),
    toolCall(A, 'a2', 1.5, 'billing-agent', 'get_quote', '{"s":"A"}', failed('rate_limit', '429', 2)),
    toolCall(A, 'a3', 4.0, 'billing-agent', 'get_quote', '{"s":"A"}'),
    toolCall(A, 'a4', 5.0, 'billing-agent', 'create_order', '{"q":0}', failed('validation', '422')),
    toolCall(A, 'a5', 5.5, 'billing-agent', 'create_order', '{"q":1}', failed('validation', '422')),
    toolCall(A, 'a6', 6.0, 'billing-agent', 'create_order', '{"q":2}'),
    toolCall(A, 'a7', 7.0, 'billing-agent', 'search', '{"x":1}', failed('permanent', 'tool_error')),
    span(A, 'a7m', 'a7', 7.01, 0.05, 'Client', 'tools/call search', {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search',
      'gen_ai.tool.call.arguments': '{"x":1}',
      ...failed('permanent', 'tool_error'),
    }),
    generate(B, 'support-agent', 'gpt-y'),
    toolCall(B, 'b1', 1.0, 'support-agent', 'get_report', '{"id":7}', failed('transient', '503')),
    toolCall(B, 'b2', 2.0, 'support-agent', 'send_message', '{}'),
    ...parallelRun(),
  ];
}

// Run C, three hours on (outside RANGE): one step calls two tools at once, as the AI SDK runs a
// step's tool calls; both spans start in the same millisecond, as OpenTelemetry JS stamps starts.
// c1 fails in 0.4 ms, its sibling c2 ends after it; the next step, c3, repeats c1 a second later.
// c1's next action is c3, never the sibling that merely outlasted it.
const C = 'cc'.repeat(16);
const C_RANGE = { from: '2026-11-29 15:00:00', to: '2026-11-29 16:00:00' };
function parallelRun(): TraceRow[] {
  const at = 3 * 3600 + 1;
  const call = (id: string, startS: number, durationS: number, tool: string, attrs = {}) =>
    span(C, id, 'c0', startS, durationS, 'Internal', 'ai.toolCall', {
      'ai.operationId': 'ai.toolCall',
      'ai.toolCall.name': tool,
      'ai.toolCall.args': '{"id":7}',
      'ai.telemetry.functionId': 'ops-agent',
      ...attrs,
    });
  return [
    span(C, 'c0', '', at, 3, 'Internal', 'ai.generateText', {
      'ai.operationId': 'ai.generateText',
      'ai.model.id': 'gpt-z',
      'ai.telemetry.functionId': 'ops-agent',
    }),
    call('c1', at + 1, 0.0004, 'get_report', failed('transient', '503')),
    call('c2', at + 1, 0.0008, 'get_invoice'),
    call('c3', at + 2, 0.1, 'get_report'),
  ];
}

let dir: string;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-agent-queries-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(store.client, serializeRows(runs()));
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const named = async <T>(name: string, params: Record<string, unknown>) =>
  (await store.runNamed<T>(`agents/${name}`, { ...RANGE, service: '', ...params })).rows;

describe('agent_actions: each failed tool call, its next action and the verdict', () => {
  it('judges every failed call of both runs as the ground truth says', async () => {
    const rs = await store.client.query({
      query: `SELECT SpanId, tool, agent, model, class, action, next_tool, waited_s, wait_covered, remedies_before, verdict
              FROM agent_actions(from = {from:DateTime}, to = {to:DateTime}) ORDER BY TraceId, Timestamp`,
      query_params: RANGE,
      format: 'JSONEachRow',
    });
    const rows = (await rs.json()) as Record<string, unknown>[];
    const id = (s: string) => s.padStart(16, '0');
    expect(rows.map((r) => [r.SpanId, r.tool, r.agent, r.model, r.class, r.action, r.verdict])).toEqual([
      [id('a1'), 'get_quote', 'billing-agent', 'gpt-x', 'rate_limit', 'identical_repeat', 'wrong'],
      [id('a2'), 'get_quote', 'billing-agent', 'gpt-x', 'rate_limit', 'wait_repeat', 'right'],
      [id('a4'), 'create_order', 'billing-agent', 'gpt-x', 'validation', 'changed_repeat', 'right'],
      [id('a5'), 'create_order', 'billing-agent', 'gpt-x', 'validation', 'changed_repeat', 'wrong'],
      [id('a7'), 'search', 'billing-agent', 'gpt-x', 'permanent', 'stop', 'right'],
      [id('b1'), 'get_report', 'support-agent', 'gpt-y', 'transient', 'other_tool', 'wrong'],
    ]);
    expect(rows.map((r) => [r.waited_s, Boolean(r.wait_covered), r.remedies_before])).toEqual([
      [0.4, false, 0],
      [2.4, true, 0],
      [0.4, true, 0],
      [0.4, true, 1],
      [0, true, 0],
      [0.9, true, 0],
    ]);
    expect(rows.map((r) => r.next_tool)).toEqual([
      'get_quote',
      'get_quote',
      'create_order',
      'create_order',
      '',
      'send_message',
    ]);
  });

  it('reads calls that start in the same millisecond as one step’s parallel calls, not as each other’s next action', async () => {
    const rs = await store.client.query({
      query: `SELECT SpanId, action, next_span_id, waited_s FROM agent_actions(from = {from:DateTime}, to = {to:DateTime})`,
      query_params: C_RANGE,
      format: 'JSONEachRow',
    });
    expect(await rs.json()).toEqual([
      {
        SpanId: '00000000000000c1',
        action: 'identical_repeat',
        next_span_id: '00000000000000c3',
        waited_s: 1,
      },
    ]);
  });

  it('names the tool, agent and model on the failure rows: the tool call’s and the calls inside it', async () => {
    const rs = await store.client.query({
      query:
        "SELECT SpanName, tool, agent, model FROM failures WHERE SpanId IN ('00000000000000a1', '0000000000000a1h') ORDER BY SpanName",
      format: 'JSONEachRow',
    });
    expect(await rs.json()).toEqual([
      { SpanName: 'GET', tool: 'get_quote', agent: 'billing-agent', model: 'gpt-x' },
      // The AI SDK names no model on its tool span: the run's is in agent_actions, not here.
      { SpanName: 'ai.toolCall', tool: 'get_quote', agent: 'billing-agent', model: '' },
    ]);
  });
});

describe('the agents/ named queries', () => {
  it('agent_compliance_by_class: right, wrong and unjudged per class', async () => {
    const rows = await named<Record<string, unknown>>('agent_compliance_by_class', { agent: '' });
    const byClass = Object.fromEntries(
      rows.map((r) => [
        r.class,
        [r.failed_calls, r.right_actions, r.wrong_actions, r.unjudged, r.compliance],
      ]),
    );
    expect(byClass).toEqual({
      rate_limit: [2, 1, 1, 0, 0.5],
      validation: [2, 1, 1, 0, 0.5],
      transient: [1, 0, 1, 0, 0],
      permanent: [1, 1, 0, 0, 1],
    });
    const billing = await named<{ class: string }>('agent_compliance_by_class', { agent: 'support-agent' });
    expect(billing.map((r) => r.class)).toEqual(['transient']);
  });

  it('agent_worst_pairs: agent, model and tool by wrong actions', async () => {
    const rows = await named<Record<string, unknown>>('agent_worst_pairs', { limit: 10 });
    expect(rows.map((r) => [r.agent, r.model, r.tool, r.wrong_actions, r.compliance, r.worst_class])).toEqual(
      [
        ['support-agent', 'gpt-y', 'get_report', 1, 0, 'transient'],
        ['billing-agent', 'gpt-x', 'create_order', 1, 0.5, 'validation'],
        ['billing-agent', 'gpt-x', 'get_quote', 1, 0.5, 'rate_limit'],
      ],
    );
    expect(rows[0]!.example_trace_id).toBe(B);
  });

  it('agent_tools_by_class: failed tool calls and the first-hand failures inside each tool', async () => {
    const rows = await named<Record<string, unknown>>('agent_tools_by_class', {});
    // get_quote: the first call's HTTP request failed first (the tool call is its echo), the second
    // failed on its own; search: the MCP call inside it. Six first-hand failures in all.
    expect(
      rows.map((r) => [r.tool, r.class, r.failed_tool_calls, r.first_hand_failures, r.budget_share]),
    ).toEqual([
      ['create_order', 'validation', 2, 2, 2 / 6],
      ['get_quote', 'rate_limit', 2, 2, 2 / 6],
      ['get_report', 'transient', 1, 1, 1 / 6],
      ['search', 'permanent', 1, 1, 1 / 6],
    ]);
  });

  it('agent_judgements: each judgement with the trace to open, filtered by verdict', async () => {
    const wrong = await named<Record<string, unknown>>('agent_judgements', {
      agent: '',
      verdict: 'wrong',
      limit: 50,
    });
    expect(wrong).toHaveLength(3);
    expect(wrong[0]).toMatchObject({
      tool: 'create_order',
      action: 'changed_repeat',
      request_path: `/request?id=${A}`,
    });
    const all = await named<Record<string, unknown>>('agent_judgements', {
      agent: '',
      verdict: '',
      limit: 50,
    });
    expect(all).toHaveLength(6);
  });

  it('agent_wrong_action_burn: the wrong share against the allowance, long and short window', async () => {
    const rows = await named<Record<string, unknown>>('agent_wrong_action_burn', {
      from: RANGE.from,
      to: '2026-11-29 12:00:05',
      short_s: 4,
      target: 0.5,
    });
    // billing-agent before 12:00:05: a1 wrong, a2 right (a4 at 5.0 is outside); support-agent: b1 wrong.
    expect(
      rows.map((r) => [
        r.service,
        r.agent,
        r.judged_long,
        r.wrong_long,
        r.judged_short,
        r.wrong_short,
        r.burn_long,
        r.burn_short,
      ]),
    ).toEqual([
      ['agents', 'support-agent', 1, 1, 1, 1, 2, 2],
      ['agents', 'billing-agent', 2, 1, 2, 1, 1, 1],
    ]);
  });

  it('each has a description', () => {
    const mine = listNamedQueries().filter((q) => q.name.startsWith('agents/'));
    expect(mine.map((q) => q.name)).toEqual([
      'agents/agent_compliance_by_class',
      'agents/agent_judgements',
      'agents/agent_tools_by_class',
      'agents/agent_worst_pairs',
      'agents/agent_wrong_action_burn',
    ]);
    for (const q of mine) expect(q.description.length).toBeGreaterThan(40);
  });
});
