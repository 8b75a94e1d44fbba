import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { generateText, stepCountIs, tool } from 'ai';
import { MockLanguageModelV2 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { guardMcpClient } from '../../src/tool/guard-mcp-client.js';
import { guardTools } from '../../src/tool/guard-tools.js';
import { ToolCallMemory } from '../../src/tool/tool-call-memory.js';

const USAGE = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

/** A mock model that calls the given tools one step at a time, then answers. */
function scripted(steps: [string, Record<string, unknown>][]) {
  return new MockLanguageModelV2({
    doGenerate: async () => {
      const next = steps.shift();
      if (next === undefined)
        return {
          content: [{ type: 'text', text: 'done' }],
          finishReason: 'stop',
          usage: USAGE,
          warnings: [],
        };
      const [toolName, args] = next;
      return {
        content: [
          { type: 'tool-call', toolCallId: `c${steps.length}`, toolName, input: JSON.stringify(args) },
        ],
        finishReason: 'tool-calls',
        usage: USAGE,
        warnings: [],
      };
    },
  });
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfter?: number,
  ) {
    super(`HTTP ${status}`);
  }
}

describe('guardTools: the harness rule for AI SDK tools (real generateText, a scripted mock model)', () => {
  it('hands the model the envelope on every failure and refuses identical repeats of terminal ones', async () => {
    const runs: string[] = [];
    let token = 'stale';
    const refused: string[] = [];
    const tools = guardTools(
      {
        get_invoice: tool({
          inputSchema: z.object({ id: z.number() }),
          execute: async ({ id }) => {
            runs.push(`get_invoice ${id}`);
            if (id === 1) throw new HttpError(404);
            return { id };
          },
        }),
        create_order: tool({
          inputSchema: z.object({ qty: z.number() }),
          execute: async ({ qty }) => {
            runs.push(`create_order ${qty}`);
            return qty < 1 ? { type: 'about:blank', title: 'Invalid quantity', status: 422 } : { ok: true };
          },
        }),
        get_profile: tool({
          inputSchema: z.object({}),
          execute: async () => {
            runs.push(`get_profile ${token}`);
            if (token !== 'fresh') throw new HttpError(401);
            return { user: 'ana' };
          },
        }),
        refresh_token: tool({
          inputSchema: z.object({}),
          execute: async () => {
            runs.push('refresh_token');
            token = 'fresh';
            return { ok: true };
          },
        }),
        get_report: tool({
          inputSchema: z.object({}),
          execute: async (): Promise<{ rows: number }> => {
            runs.push('get_report');
            throw new HttpError(503, 0);
          },
        }),
      },
      { onRefuse: ({ tool, envelope }) => refused.push(`${tool} ${envelope.class}`) },
    );
    const result = await generateText({
      model: scripted([
        ['get_invoice', { id: 1 }],
        ['get_invoice', { id: 1 }], // permanent: refused
        ['get_invoice', { id: 2 }], // other arguments: run
        ['create_order', { qty: 0 }],
        ['create_order', { qty: 0 }], // validation: refused
        ['create_order', { qty: 2 }],
        ['get_profile', {}],
        ['get_profile', {}], // authentication: refused until a refresh
        ['refresh_token', {}],
        ['get_profile', {}], // after the refresh: run
        ['get_report', {}],
        ['get_report', {}], // transient: never refused
      ]),
      tools,
      stopWhen: stepCountIs(20),
      prompt: 'go',
    });
    expect(runs).toEqual([
      'get_invoice 1',
      'get_invoice 2',
      'create_order 0',
      'create_order 2',
      'get_profile stale',
      'refresh_token',
      'get_profile fresh',
      'get_report',
      'get_report',
    ]);
    expect(refused).toEqual([
      'get_invoice permanent',
      'create_order validation',
      'get_profile authentication',
    ]);
    const outputs = result.steps.flatMap((s) =>
      s.content.filter((c) => c.type === 'tool-result').map((c) => c.output as Record<string, unknown>),
    );
    // Every failure reached the model as a result carrying the seven-field envelope, none as a throw.
    expect(result.steps.flatMap((s) => s.content.filter((c) => c.type === 'tool-error'))).toEqual([]);
    const failures = outputs.filter((o) => o.ok === false);
    expect(
      failures.map((o) => [
        (o.error as { class: string }).class,
        (o.error as { code: string }).code,
        typeof o.refused,
      ]),
    ).toEqual([
      ['permanent', '404', 'undefined'],
      ['permanent', '404', 'string'],
      ['validation', '422', 'undefined'],
      ['validation', '422', 'string'],
      ['authentication', '401', 'undefined'],
      ['authentication', '401', 'string'],
      ['transient', '503', 'undefined'],
      ['transient', '503', 'undefined'],
    ]);
    expect(Object.keys(failures[0]!.error as object).sort()).toEqual(
      ['class', 'code', 'correlation_id', 'message', 'retry_after', 'retryable', 'source'].sort(),
    );
    expect(failures[1]!.refused).toMatch(
      /not run: an identical call of get_invoice already failed with permanent \(404\)/,
    );
  });
});

describe('guardMcpClient: the same rule for an MCP client (real client and server, in process)', () => {
  async function connect() {
    const server = new McpServer({ name: 's', version: '1.0.0' });
    const calls: string[] = [];
    server.registerTool('delete_item', { inputSchema: { id: z.number() } }, async ({ id }) => {
      calls.push(`delete_item ${id}`);
      return { isError: true, content: [{ type: 'text', text: `item ${id} not found` }] };
    });
    server.registerTool('search', { inputSchema: { q: z.string() } }, async ({ q }) => {
      calls.push(`search ${q}`);
      return { isError: true, content: [{ type: 'text', text: 'rate limited (HTTP 429), retry after 1 s' }] };
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(a);
    return { client, server, calls };
  }

  it('adds the envelope to a failed result, refuses a terminal repeat, turns a thrown error into a result', async () => {
    const { client, server, calls } = await connect();
    const memory = new ToolCallMemory();
    const guarded = guardMcpClient(client, { memory });
    const text = (r: unknown) => (r as { content: { text: string }[] }).content.map((c) => c.text);
    const envelopeOf = (r: unknown) =>
      JSON.parse(text(r).at(-1)!) as { error: { class: string; code: string }; refused?: string };
    try {
      const first = await guarded.callTool({ name: 'delete_item', arguments: { id: 42 } });
      expect((first as { isError: boolean }).isError).toBe(true);
      expect(text(first)[0]).toBe('item 42 not found');
      expect(envelopeOf(first).error).toMatchObject({ class: 'permanent', code: 'tool_error' });
      const again = await guarded.callTool({ name: 'delete_item', arguments: { id: 42 } });
      expect(envelopeOf(again).refused).toMatch(/not run/);
      await guarded.callTool({ name: 'delete_item', arguments: { id: 43 } });
      // Rate limits are never refused: waiting fixes them.
      const limited = await guarded.callTool({ name: 'search', arguments: { q: 'a' } });
      expect(envelopeOf(limited).error).toMatchObject({ class: 'rate_limit', code: '429' });
      await guarded.callTool({ name: 'search', arguments: { q: 'a' } });
      expect(calls).toEqual(['delete_item 42', 'delete_item 43', 'search a', 'search a']);
      // A JSON-RPC error (the arguments do not fit the tool's schema) is handed back, not thrown.
      const bad = await guarded.callTool({ name: 'delete_item', arguments: { id: 'x' } });
      expect((bad as { isError: boolean }).isError).toBe(true);
      expect(envelopeOf(bad).error.class).toBe('validation');
      // Everything else is the client itself.
      expect(typeof guarded.listTools).toBe('function');
      expect((await guarded.listTools()).tools.map((t) => t.name).sort()).toEqual(['delete_item', 'search']);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
