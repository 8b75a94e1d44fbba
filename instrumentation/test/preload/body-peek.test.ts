import { createServer, get, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { classifyHttpResponse } from '../../src/http/classify-http-response.js';
import { peekIncomingMessage } from '../../src/preload/clients/http/incoming-peek.js';
import { isPeekable, isPeekableRaw, mayCarryError } from '../../src/preload/shared/body-peek.js';

describe('body peek', () => {
  it('only peeks JSON whose declared length, if any, is within the bound', () => {
    expect(isPeekable('application/json; charset=utf-8', '120', 16_384)).toBe(true);
    expect(isPeekable('application/problem+json', 80, 16_384)).toBe(true);
    expect(isPeekable('text/html', '120', 16_384)).toBe(false);
    // Chunked or close-delimited: peeked, bounded by what arrives (BodyCopy).
    expect(isPeekable('application/json', undefined, 16_384)).toBe(true);
    expect(isPeekable('text/html', undefined, 16_384)).toBe(false);
    expect(isPeekable('application/json', '20000', 16_384)).toBe(false);
    expect(isPeekable('application/json', '0', 16_384)).toBe(false);
    // AWS JSON protocols carry the error name (ThrottlingException) only in the body.
    expect(isPeekable('application/x-amz-json-1.0', '120', 16_384)).toBe(true);
    expect(isPeekable('application/x-amz-json-1.1', '120', 16_384)).toBe(true);
    expect(isPeekable('application/vnd.api+json; charset=utf-8', '120', 16_384)).toBe(true);
    expect(isPeekable('application/json-seq', '120', 16_384)).toBe(false); // a stream of records
    expect(isPeekable('application/jsonx', '120', 16_384)).toBe(false);
    expect(isPeekable('application/json', '1.5', 16_384)).toBe(false);
  });

  it('reads the same verdict from a raw header list, as node:http and undici hand it', () => {
    const node = ['Content-Type', 'application/json', 'Content-Length', '120', 'Date', 'Thu'];
    expect(isPeekableRaw(node, 16_384, true)).toBe(true);
    expect(isPeekableRaw([...node, 'Content-Encoding', 'gzip'], 16_384, true)).toBe(false);
    // fetch decodes before the application (and the tap) sees a byte: the encoding is irrelevant.
    expect(isPeekableRaw([...node, 'content-encoding', 'gzip'], 16_384, false)).toBe(true);
    expect(isPeekableRaw(['content-type', 'text/plain', 'content-length', '2'], 16_384, true)).toBe(false);
    expect(isPeekableRaw(['Content-Length', '20000', 'Content-Type', 'application/json'], 16_384, true)).toBe(
      false,
    );
    // As node:http keeps them: the first Content-Type counts.
    expect(
      isPeekableRaw(['content-type', 'text/html', 'content-type', 'application/json'], 16_384, true),
    ).toBe(false);
    const undici = [Buffer.from('content-type'), Buffer.from('application/problem+json')];
    expect(isPeekableRaw(undici, 16_384, false)).toBe(true);
    expect(isPeekableRaw([], 16_384, true)).toBe(false);
  });

  it('skips the parse for bodies without any error marker', () => {
    expect(mayCarryError('{"ok":true,"items":[1,2]}')).toBe(false);
    expect(mayCarryError('{"ok": false}')).toBe(true);
    expect(mayCarryError('{"items":[1,2],"total":2}')).toBe(false);
    expect(mayCarryError('{"errors":[{"message":"Throttled"}]}')).toBe(true);
    expect(mayCarryError(Buffer.from('{"Status":"Failure"}'))).toBe(true);
  });

  it('under a success status, parses only bodies that can report a failure, and every one that can', () => {
    // Real success bodies that carry a status of their own: nothing in them can report a failure.
    expect(mayCarryError('{"ok":true,"id":4217,"status":"settled"}', true)).toBe(false);
    expect(mayCarryError('{"id":"sub_1","status":"active","items":[]}', true)).toBe(false);
    // Silent failures seen under 200, each of which jsonBodyFindings reports as a failure.
    const silent = [
      '{"ok":false,"error":"ratelimited"}', // Slack
      '{"data":null,"errors":[{"message":"Throttled","extensions":{"code":"THROTTLED"}}]}', // GraphQL
      '{"status":"error","message":"Invalid API key"}', // JSend
      '{"status":"fail","data":{"title":"A title is required"}}', // JSend
      '{"status":"FAILED","reason":"quota exhausted"}',
      '{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Conflict"}', // Kubernetes
      '{"success":false,"message":"Card declined"}',
      '{"success" : false}',
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"limit exceeded"}}',
      '{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"boom"}]}}', // MCP
      '{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"Rate exceeded"}',
      '[{"message":"Session expired","errorCode":"INVALID_SESSION_ID"}]', // Salesforce
    ];
    for (const body of silent) {
      expect(classifyHttpResponse({ status: 200, body: JSON.parse(body) }), body).not.toBeNull();
      expect(mayCarryError(body, true), body).toBe(true);
    }
    // A failing status keeps the wider gate: a bare status there may still name the failure.
    expect(mayCarryError('{"status":429,"message":"Too many requests"}')).toBe(true);
  });

  it("copies a node:http body without changing the application's read", async () => {
    const body = JSON.stringify({ ok: false, error: { code: 'insufficient_funds' }, pad: 'x'.repeat(3000) });
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      // Two writes: the peek must assemble chunks.
      res.write(body.slice(0, 1000));
      setTimeout(() => res.end(body.slice(1000)), 5);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // Wrapped in the 'response' event itself, as the instrumentation's responseHook runs.
    const [res, peek] = await new Promise<[IncomingMessage, () => unknown]>((resolve) =>
      get(`http://127.0.0.1:${port}/`, (r) => resolve([r, peekIncomingMessage(r, 16_384)])),
    );
    // The application starts reading late, in paused mode: it must still get every byte.
    await new Promise((r) => setTimeout(r, 20));
    let read = '';
    for await (const chunk of res) read += String(chunk);
    server.close();
    expect(read).toBe(body);
    expect(peek()).toEqual(JSON.parse(body));
  });
});
