import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  addDerivedAttributes,
  allowedRetryAfter,
  attributes,
  createEnvelope,
  envelopeAttributes,
  httpStatusOf,
  toModelEnvelope,
} from '../../src/envelope-entry.js';
import { classifyError } from '../../src/error/classify-error.js';
import { classifyHttpResponse } from '../../src/http/classify-http-response.js';
import type { Envelope } from '../../src/types.js';

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('@faultline/instrumentation/envelope', () => {
  it('is pure: require loads no @opentelemetry module', () => {
    const script =
      "require('@faultline/instrumentation/envelope'); console.log(JSON.stringify(Object.keys(require.cache)))";
    const mods = JSON.parse(
      execFileSync(process.execPath, ['-e', script], { cwd: pkgDir, encoding: 'utf8' }),
    ) as string[];
    expect(mods.some((m) => m.endsWith('envelope.cjs'))).toBe(true);
    expect(mods.filter((m) => /[\\/]@opentelemetry[\\/]/.test(m))).toEqual([]);
  });

  it('exports the contract under ESM, the same values as the main entry', async () => {
    const envelope = await import('@faultline/instrumentation/envelope');
    const core = await import('@faultline/instrumentation');
    expect(envelope.ERROR_CLASSES).toEqual(core.ERROR_CLASSES);
    expect(envelope.attributes.ENVELOPE_ATTRIBUTES).toEqual(core.attributes.ENVELOPE_ATTRIBUTES);
    for (const name of ['envelopeAttributes', 'addDerivedAttributes', 'httpStatusOf', 'sourceOf'])
      expect(typeof (envelope as Record<string, unknown>)[name]).toBe('function');
  });
});

describe('httpStatusOf: one read for both ends', () => {
  it('reads either semconv generation, as a number or its stored text', () => {
    expect(httpStatusOf({ 'http.response.status_code': 503 })).toBe(503);
    expect(httpStatusOf({ 'http.response.status_code': '503' })).toBe(503);
    expect(httpStatusOf({ 'http.status_code': 404 })).toBe(404);
    expect(httpStatusOf({ 'http.status_code': '404' })).toBe(404);
  });

  it('takes only what classifyHttpResponse accepts: an integer from 100 to 999', () => {
    for (const bad of [404.5, 1000, 99, '', ' ', 'abc', Number.NaN, true, null]) {
      expect(httpStatusOf({ 'http.response.status_code': bad })).toBeUndefined();
    }
    for (const status of [100, 404, 999]) {
      expect(() => classifyHttpResponse({ status })).not.toThrow();
    }
  });

  it('a server span with a malformed status gets no derived envelope', () => {
    const attrs: Record<string, unknown> = { 'http.request.method': 'GET', 'http.response.status_code': '' };
    addDerivedAttributes(attrs, { traceId: 't1', parentSpanId: 'p', kind: 'server' }, 'stored');
    expect(attrs[attributes.ATTR_CLASS]).toBeUndefined();
  });
});

describe('envelopeAttributes: one writer, two forms', () => {
  const envelope = createEnvelope({
    class: 'rate_limit',
    source: 'http',
    code: '429',
    message: 'slow down',
    retryAfter: 7,
    correlationId: 'c-1',
    raw: { status: 429 },
  });
  const span = { 'http.request.method': 'GET' };

  it('stored is exported with every value as the OTLP → ClickHouse map holds it', () => {
    const ids = { correlationId: '', sourceDerivable: false };
    const exported = envelopeAttributes(envelope, span, ids);
    const stored = envelopeAttributes(envelope, span, ids, 'stored');
    expect(exported).toMatchObject({
      [attributes.ATTR_RETRYABLE]: true,
      [attributes.ATTR_RETRY_AFTER]: 7,
      [attributes.ATTR_RAW]: '{"status":429}',
    });
    expect(stored).toEqual(Object.fromEntries(Object.entries(exported).map(([k, v]) => [k, String(v)])));
    expect(Object.keys(stored)).toEqual([...attributes.ENVELOPE_ATTRIBUTES]);
  });

  it('leaves off what follows from the span: null retry_after, its own correlation id, an implied source', () => {
    const lean = envelopeAttributes({ ...envelope, retryable: false, retry_after: null }, span, {
      correlationId: 'c-1',
      sourceDerivable: true,
    });
    expect(Object.keys(lean)).toEqual([
      attributes.ATTR_CLASS,
      attributes.ATTR_CODE,
      attributes.ATTR_MESSAGE,
      attributes.ATTR_RETRYABLE,
      attributes.ATTR_RAW,
    ]);
  });
});

describe('the retry_after rule', () => {
  it('is a finite number >= 0 beside retryable, else null', () => {
    expect(allowedRetryAfter(true, 3)).toBe(3);
    expect(allowedRetryAfter(true, 0)).toBe(0);
    expect(allowedRetryAfter(false, 3)).toBeNull();
    expect(allowedRetryAfter(true, -1)).toBeNull();
    expect(allowedRetryAfter(true, Number.POSITIVE_INFINITY)).toBeNull();
    expect(allowedRetryAfter(true, '3')).toBeNull();
  });

  it('holds in the model form of a hand-made envelope', () => {
    const made: Envelope = {
      class: 'transient',
      source: 'db',
      code: 'x',
      message: 'm',
      retryable: true,
      retry_after: Number.NaN,
      correlation_id: '',
      raw: null,
    };
    expect(toModelEnvelope(made).retry_after).toBeNull();
    expect(toModelEnvelope({ ...made, retryable: false, retry_after: 4 }).retry_after).toBeNull();
  });

  it('holds for an SDK error whose own verdict says not to retry a response that asked for a wait', () => {
    const err = Object.assign(new Error('overloaded'), {
      name: 'AI_APICallError',
      isRetryable: false,
      statusCode: 503,
      responseHeaders: { 'retry-after': '30' },
      url: 'https://api.example.com/v1/chat',
    });
    const env = classifyError(err);
    expect(env.retryable).toBe(false);
    expect(env.retry_after).toBeNull();
  });
});
