import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentRules, type NextAction } from '@faultline/instrumentation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { openStore } from '../../src/index.js';
import type { Store } from '../../src/types.js';
import { dateTime64, makeRow } from '../support/trace-row-fixture.js';

/**
 * The agent rules have two homes by necessity: the preload, the collector and the in-loop guards
 * apply the TypeScript twins (@faultline/instrumentation `agentRules`), failures, tool_calls and
 * agent_actions the SQL functions of sql/schema/007_agent_rules.sql. Both run here over the same
 * inputs; any disagreement fails.
 */
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

/** Spans as the AI SDK, an MCP client (the preload's), other GenAI instrumentations and the preload's marks leave them. */
const SHAPES: Record<string, Record<string, string>> = {
  'ai-tool-call': {
    'ai.operationId': 'ai.toolCall',
    'ai.toolCall.name': 'get_quote',
    'ai.toolCall.id': 'call-1',
    'ai.toolCall.args': '{"symbol":"ACME"}',
    'ai.telemetry.functionId': 'billing-agent',
  },
  'ai-tool-call-marked': {
    'ai.toolCall.name': 'get_quote',
    'ai.telemetry.functionId': 'billing-agent',
    'faultline.model': 'gpt-x',
  },
  'ai-generate-text': {
    'ai.operationId': 'ai.generateText',
    'ai.model.id': 'gpt-x',
    'ai.model.provider': 'openai.chat',
    'ai.telemetry.functionId': 'billing-agent',
  },
  'mcp-tools-call': {
    'mcp.method.name': 'tools/call',
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': 'search_catalog',
    'gen_ai.tool.call.arguments': '{"query":"bolts"}',
  },
  'genai-execute-tool-with-agent': {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': 'lookup',
    'gen_ai.agent.name': 'planner',
    'gen_ai.request.model': 'claude-x',
    'ai.toolCall.name': 'other-name',
  },
  'genai-chat': { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-y' },
  'genai-invoke-agent': { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'planner' },
  'http-under-tool': {
    'http.request.method': 'GET',
    'faultline.class': 'rate_limit',
    'faultline.tool': 'get_quote',
    'faultline.agent': 'billing-agent',
    'faultline.model': 'gpt-x',
  },
  'plain-http': { 'http.request.method': 'GET', 'http.response.status_code': '503' },
  'empty-values': { 'gen_ai.tool.name': '', 'ai.toolCall.name': '', 'faultline.tool': 'fallback' },
};

const TOOL_NAMES = [
  'refresh_token',
  'RefreshToken',
  'login',
  'oauth_callback',
  'authenticate',
  'auth',
  'get_auth_header',
  'author_lookup',
  'sign_in',
  'signin',
  'wait',
  'sleep_seconds',
  'backoff',
  'Pause',
  'get_quote',
  'create_user',
  'tokenize_text',
];

const ACTIONS: NextAction[] = [
  'identical_repeat',
  'changed_repeat',
  'refresh_repeat',
  'wait_repeat',
  'other_tool',
  'stop',
];
const CLASSES = ['validation', 'authentication', 'rate_limit', 'transient', 'permanent', 'unknown'];

let dir: string;
let store: Store;

async function rows<T>(query: string): Promise<T[]> {
  const rs = await store.client.query({ query, format: 'JSONEachRow' });
  return (await rs.json()) as T[];
}

const lit = (v: string | number | boolean | null) =>
  v === null ? 'NULL' : typeof v === 'string' ? `'${v.replace(/'/g, "\\'")}'` : String(v);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-agent-parity-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(
    store.client,
    serializeRows(
      Object.entries(SHAPES).map(([id, attrs], i) =>
        makeRow({
          Timestamp: dateTime64(T0 + i * 1000),
          SpanName: id,
          SpanKind: 'Internal',
          SpanAttributes: attrs,
        }),
      ),
    ),
  );
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('agent rules: the TypeScript twins and the SQL functions agree', () => {
  it('on the tool, agent, model, arguments and tool-call reading of every span shape', async () => {
    const sql = await rows<Record<string, unknown>>(
      `SELECT SpanName AS id, faultline_tool_name(SpanAttributes) AS tool, faultline_agent_name(SpanAttributes) AS agent,
         faultline_model_name(SpanAttributes) AS model, faultline_is_tool_call(SpanAttributes) AS is_tool,
         faultline_tool_args(SpanAttributes) AS args
       FROM otel_traces ORDER BY id`,
    );
    const ts = Object.entries(SHAPES)
      .map(([id, attrs]) => ({
        id,
        tool: agentRules.toolNameOf(attrs),
        agent: agentRules.agentNameOf(attrs),
        model: agentRules.modelNameOf(attrs),
        is_tool: agentRules.isToolCall(attrs),
        args: agentRules.toolArgsOf(attrs),
      }))
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(sql.map((r) => ({ ...r, is_tool: Boolean(r.is_tool) }))).toEqual(ts);
    // What each reading is for, spelled out for three shapes.
    const byId = new Map(ts.map((r) => [r.id, r]));
    expect(byId.get('ai-tool-call')).toMatchObject({
      tool: 'get_quote',
      agent: 'billing-agent',
      model: '',
      is_tool: true,
    });
    expect(byId.get('http-under-tool')).toMatchObject({ tool: 'get_quote', model: 'gpt-x', is_tool: false });
    expect(byId.get('genai-execute-tool-with-agent')).toMatchObject({
      tool: 'lookup',
      agent: 'planner',
      model: 'claude-x',
    });
  });

  it('on which tools are refresh-like and wait-like', async () => {
    const sql = await rows<{ name: string; kind: string }>(
      `SELECT name, faultline_tool_helper(name) AS kind FROM values('name String', ${TOOL_NAMES.map((n) => `(${lit(n)})`).join(', ')})`,
    );
    expect(sql).toEqual(TOOL_NAMES.map((name) => ({ name, kind: agentRules.toolHelperKind(name) })));
    expect(sql.filter((r) => r.kind === 'refresh').map((r) => r.name)).toEqual([
      'refresh_token',
      'RefreshToken',
      'login',
      'oauth_callback',
      'authenticate',
      'auth',
      'get_auth_header',
      'sign_in',
      'signin',
    ]);
  });

  it('on the next action, for every combination of what followed a failure', async () => {
    const cases: [number, boolean, boolean, boolean, boolean, number, number | null][] = [];
    for (const later of [0, 2])
      for (const found of [false, true])
        for (const sameTool of [false, true])
          for (const refreshed of [false, true])
            for (const sameArgs of [false, true])
              for (const waited of [0, 0.5, 1, 2.25])
                for (const retryAfter of [null, 0, 1, 2])
                  cases.push([later, found, sameTool, refreshed, sameArgs, waited, retryAfter]);
    const sql = await rows<{ action: string; covered: boolean }>(
      `SELECT faultline_next_action(later, found, same_tool, refreshed, same_args, waited_s, retry_after) AS action,
         faultline_wait_covered(waited_s, retry_after) AS covered
       FROM values('later UInt32, found Bool, same_tool Bool, refreshed Bool, same_args Bool, waited_s Float64, retry_after Nullable(Float64)',
         ${cases.map((c) => `(${c.map(lit).join(', ')})`).join(', ')})`,
    );
    const ts = cases.map(([later, found, sameTool, refreshed, sameArgs, waitedS, retryAfter]) => ({
      action: agentRules.nextActionOf({ later, found, sameTool, refreshed, sameArgs, waitedS, retryAfter }),
      covered: agentRules.waitCovered(waitedS, retryAfter),
    }));
    expect(sql.map((r) => ({ action: r.action, covered: Boolean(r.covered) }))).toEqual(ts);
    expect(new Set(ts.map((r) => r.action))).toEqual(new Set(ACTIONS));
  });

  it('on the remedy and the verdict, for every class, action and history', async () => {
    const cases: [string, string, boolean, boolean, number][] = [];
    for (const cls of CLASSES)
      for (const action of ACTIONS)
        for (const sameArgs of [false, true])
          for (const covered of [false, true])
            for (const remedies of [0, 1, 2]) cases.push([cls, action, sameArgs, covered, remedies]);
    const sql = await rows<{ verdict: string; remedy: boolean }>(
      `SELECT faultline_action_verdict(class, action, same_args, covered, remedies_before) AS verdict,
         faultline_action_remedy(class, action, same_args) AS remedy
       FROM values('class String, action String, same_args Bool, covered Bool, remedies_before UInt32',
         ${cases.map((c) => `(${c.map(lit).join(', ')})`).join(', ')})`,
    );
    const ts = cases.map(([cls, action, sameArgs, covered, remedies]) => ({
      verdict: agentRules.nextActionVerdict(cls, action as NextAction, sameArgs, covered, remedies),
      remedy: agentRules.isRemedy(cls, action as NextAction, sameArgs),
    }));
    expect(sql.map((r) => ({ verdict: r.verdict, remedy: Boolean(r.remedy) }))).toEqual(ts);
  });
});
