import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { envelopeOfFailedSpan } from '../../src/span-fields/envelope-of-failed-span.js';
import { envelopeOfToolResult } from '../../src/span-fields/tool-result-of-span.js';
import { classifyToolError } from '../../src/tool/classify-tool-error.js';
import { classifyToolResult } from '../../src/tool/classify-tool-result.js';
import type { Envelope } from '../../src/types.js';

const brief = (e: Envelope | null) => e && [e.class, e.source, e.code, e.retry_after];

/** A failed HTTP call as tool authors throw it. */
class HttpError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

describe('classifyToolError: what a tool threw, by what it carries', () => {
  it.each([
    ['a status and retryAfter', new HttpError('rate limited', 429, 2), ['rate_limit', 'http', '429', 2]],
    [
      'retryAfterMs',
      Object.assign(new Error('slow down'), { status: 429, retryAfterMs: 1500 }),
      ['rate_limit', 'http', '429', 1.5],
    ],
    ['a status only', new HttpError('upstream down', 503), ['transient', 'http', '503', null]],
    [
      'the status in the message',
      new Error('HTTP 401 Unauthorized'),
      ['authentication', 'http', '401', null],
    ],
    ['axios’s words', new Error('Request failed with status code 422'), ['validation', 'http', '422', null]],
    [
      'the status and the wait in the message',
      new Error('HTTP 429 Too Many Requests: retry after 3s'),
      ['rate_limit', 'http', '429', 3],
    ],
    [
      'a reason phrase',
      new Error('upstream said 503 Service Unavailable'),
      ['transient', 'http', '503', null],
    ],
    [
      'a PostgreSQL text under pg’s name',
      Object.assign(new Error('duplicate key value violates unique constraint "u"'), { name: 'error' }),
      ['validation', 'db', '23505', null],
    ],
    ['a MySQL text', new Error("Duplicate entry 'a' for key 'PRIMARY'"), ['validation', 'db', '1062', null]],
    [
      'a refused socket',
      new Error('connect ECONNREFUSED 127.0.0.1:1'),
      ['transient', 'network', 'ECONNREFUSED', null],
    ],
    [
      'an MCP JSON-RPC error',
      Object.assign(new Error('MCP error -32602: bad params'), { name: 'McpError', code: -32602 }),
      ['validation', 'tool', '-32602', null],
    ],
    ['nothing readable', new Error('the widget broke'), ['permanent', 'tool', 'Error', null]],
  ] as const)('%s', (_, err, expected) => {
    expect(brief(classifyToolError(err, { correlationId: 'c-1' }))).toEqual(expected);
  });

  it('numbers in a message that are not a status stay what they are', () => {
    expect(brief(classifyToolError(new Error('listening on port 4290, 500 rows')))).toEqual([
      'permanent',
      'tool',
      'Error',
      null,
    ]);
  });

  it('a real pg error by its SQLSTATE', async () => {
    const client = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' });
    await client.connect();
    try {
      await client.query('CREATE TEMP TABLE fl_tool_u (email text PRIMARY KEY)');
      await client.query("INSERT INTO fl_tool_u VALUES ('a')");
      const err = await client.query("INSERT INTO fl_tool_u VALUES ('a')").catch((e: unknown) => e);
      expect(brief(classifyToolError(err))).toEqual(['validation', 'db', '23505', null]);
      // What the AI SDK's exception event keeps of it: its name ("error") and message.
      const kept = { name: (err as Error).name, message: (err as Error).message };
      expect(brief(classifyToolError(kept))).toEqual(['validation', 'db', '23505', null]);
    } finally {
      await client.end();
    }
  });

  it('never throws', () => {
    for (const v of [
      null,
      undefined,
      42,
      'HTTP 404',
      Symbol('x'),
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('no');
          },
        },
      ),
    ])
      expect(() => classifyToolError(v)).not.toThrow();
    expect(brief(classifyToolError('HTTP 404 Not Found'))).toEqual(['permanent', 'http', '404', null]);
  });
});

describe('classifyToolResult: results that report a failure', () => {
  it.each([
    [
      '{ ok: false, error } (Slack)',
      { ok: false, error: 'channel_not_found' },
      ['permanent', 'tool', 'channel_not_found', null],
    ],
    [
      '{ ok: false } with a wait',
      { ok: false, error: 'rate_limited', retry_after: 4 },
      ['rate_limit', 'tool', 'rate_limited', 4],
    ],
    [
      '{ ok: false } in words',
      { ok: false, error: 'service unavailable' },
      ['transient', 'tool', 'tool_error', null],
    ],
    [
      '{ ok: false } stating a status',
      { ok: false, error: 'HTTP 429 from upstream, retry after 2 s' },
      ['rate_limit', 'http', '429', 2],
    ],
    [
      'an RFC 9457 problem body',
      { type: 'https://x/invalid', title: 'Invalid quantity', status: 422, detail: 'qty must be at least 1' },
      ['validation', 'http', '422', null],
    ],
    [
      'an error object',
      { error: { code: 'TIMEOUT', message: 'upstream timed out' } },
      ['transient', 'tool', 'TIMEOUT', null],
    ],
    ['an Error returned, not thrown', new HttpError('nope', 404), ['permanent', 'http', '404', null]],
    [
      'MCP isError, text with a status',
      { isError: true, content: [{ type: 'text', text: 'Rate limit exceeded: retry after 1 s (HTTP 429)' }] },
      ['rate_limit', 'http', '429', 1],
    ],
    [
      'MCP isError, JSON text',
      { isError: true, content: [{ type: 'text', text: '{"ok":false,"error":"invalid_sku"}' }] },
      ['validation', 'tool', 'invalid_sku', null],
    ],
    [
      'MCP isError, structuredContent',
      { isError: true, content: [], structuredContent: { status: 503, title: 'down' } },
      ['transient', 'http', '503', null],
    ],
    [
      'MCP isError, plain words',
      { isError: true, content: [{ type: 'text', text: 'item 42 not found' }] },
      ['permanent', 'tool', 'tool_error', null],
    ],
    [
      'a model envelope',
      {
        ok: false,
        error: {
          class: 'authentication',
          source: 'http',
          code: '401',
          message: 'expired',
          retryable: false,
          retry_after: null,
          correlation_id: 'c',
        },
      },
      ['authentication', 'http', '401', null],
    ],
  ] as const)('%s', (_, result, expected) => {
    expect(brief(classifyToolResult(result))).toEqual(expected);
  });

  it.each([
    ['a plain answer', { price: 12.5 }],
    ['{ ok: true }', { ok: true, data: [] }],
    ['an MCP success', { content: [{ type: 'text', text: 'error rates are low' }] }],
    ['a string', 'error: not really'],
    ['null', null],
    ['an array of rows', [{ id: 1 }]],
  ])('%s is not a failure', (_, result) => {
    expect(classifyToolResult(result)).toBeNull();
  });
});

describe('a stock tool span, read as the collector reads it', () => {
  it('classifies a failed ai.toolCall by its exception’s message', () => {
    const env = envelopeOfFailedSpan(
      {
        attrs: { 'ai.operationId': 'ai.toolCall', 'ai.toolCall.name': 'get_quote' },
        exceptionType: 'HttpError',
        exceptionMessage: 'HTTP 429 Too Many Requests: retry after 1 s',
        statusMessage: 'HTTP 429 Too Many Requests: retry after 1 s',
      },
      'trace-1',
    );
    expect(brief(env)).toEqual(['rate_limit', 'http', '429', 1]);
  });

  it('files a failure with nothing readable as the tool’s own, not unknown', () => {
    const env = envelopeOfFailedSpan(
      {
        attrs: { 'ai.toolCall.name': 'x' },
        exceptionType: 'Error',
        exceptionMessage: 'boom',
        statusMessage: 'boom',
      },
      't',
    );
    expect(brief(env)).toEqual(['permanent', 'tool', 'Error', null]);
  });

  it('reads a recorded result that reports a failure, and only on a tool call', () => {
    const result = JSON.stringify({ content: [{ type: 'text', text: 'item 42 not found' }], isError: true });
    expect(
      brief(envelopeOfToolResult({ 'ai.toolCall.name': 'del', 'ai.toolCall.result': result }, 't')),
    ).toEqual(['permanent', 'tool', 'tool_error', null]);
    expect(envelopeOfToolResult({ 'ai.toolCall.result': result }, 't')).toBeNull();
    expect(
      envelopeOfToolResult({ 'ai.toolCall.name': 'q', 'ai.toolCall.result': '{"price":1}' }, 't'),
    ).toBeNull();
    expect(envelopeOfToolResult({ 'ai.toolCall.name': 'q', 'ai.toolCall.result': '{"ok":' }, 't')).toBeNull();
  });
});
