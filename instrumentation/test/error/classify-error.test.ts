import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { normalizeUnknown } from '../../src/error/normalize-unknown.js';
import type { Envelope } from '../../src/types.js';

const FIELDS = ['class', 'source', 'code', 'message', 'retryable', 'retry_after', 'correlation_id', 'raw'];

function expectValidEnvelope(env: Envelope): void {
  expect(Object.keys(env).sort()).toEqual([...FIELDS].sort());
  expect(typeof env.message).toBe('string');
  expect(typeof env.code).toBe('string');
  expect(() => JSON.stringify(env)).not.toThrow();
  if (!env.retryable) expect(env.retry_after).toBeNull();
}

describe('classifyError: hostile and odd inputs never throw', () => {
  const circular: Record<string, unknown> = { message: 'loop' };
  circular.self = circular;
  const causeLoop = new Error('outer');
  const inner = new Error('inner', { cause: causeLoop });
  (causeLoop as { cause?: unknown }).cause = inner;
  const throwingGetter = Object.defineProperty(new Error('getter'), 'code', {
    get() {
      throw new Error('nope');
    },
  });
  const proxy = new Proxy(
    {},
    {
      get() {
        throw new Error('trap');
      },
      has() {
        throw new Error('trap');
      },
      ownKeys() {
        throw new Error('trap');
      },
      getPrototypeOf() {
        throw new Error('trap');
      },
    },
  );
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();

  it.each<[string, unknown]>([
    ['null', null],
    ['undefined', undefined],
    ['a string', 'something broke'],
    ['an empty string', ''],
    ['a number', 42],
    ['a bigint', 10n],
    ['a symbol', Symbol('boom')],
    ['a function', () => 1],
    ['a circular object', circular],
    ['an Error whose cause chain loops', causeLoop],
    ['a throwing getter', throwingGetter],
    ['a Proxy whose traps throw', proxy],
    ['a revoked Proxy', revocable.proxy],
    ['a frozen Error', Object.freeze(Object.assign(new Error('frozen'), { code: 'ECONNRESET' }))],
    ['an object with a null prototype', Object.assign(Object.create(null), { code: 'ETIMEDOUT' })],
  ])('%s', (_label, value) => {
    const env = classifyError(value, { correlationId: 'req-1' });
    expectValidEnvelope(env);
    expect(env.correlation_id).toBe('req-1');
  });

  it('survives a hostile ctx (a Proxy whose traps throw)', () => {
    const ctx = new Proxy(
      {},
      {
        get() {
          throw new Error('ctx trap');
        },
      },
    );
    const env = classifyError(new Error('x'), ctx);
    expectValidEnvelope(env);
    expect(env.class).toBe('permanent');
  });

  it('keeps a frozen error classifiable', () => {
    const frozen = Object.freeze(Object.assign(new Error('reset'), { code: 'ECONNRESET' }));
    expect(classifyError(frozen)).toMatchObject({ class: 'transient', code: 'ECONNRESET' });
  });

  it('falls back to permanent with raw kept and the most specific code available', () => {
    const env = classifyError(
      Object.assign(new Error('quota gone'), { code: 'E_CUSTOM', detail: { id: 7 } }),
    );
    expect(env).toMatchObject({ class: 'permanent', code: 'E_CUSTOM', retryable: false, retry_after: null });
    expect(env.raw).toMatchObject({
      name: 'Error',
      message: 'quota gone',
      code: 'E_CUSTOM',
      detail: { id: 7 },
    });
  });

  it('describes a thrown plain object by its keys', () => {
    const env = classifyError({ reason: 'x', when: 1 });
    expect(env.message).toBe('Object captured as exception with keys: reason, when');
    expect(env.class).toBe('permanent');
  });

  it('uses the bare status of an error when nothing more specific exists (http-errors style)', () => {
    const err = Object.assign(new Error('Not Found'), { status: 404, statusCode: 404, expose: true });
    expect(classifyError(err)).toMatchObject({ class: 'permanent', code: '404', source: 'http' });
    const tooMany = Object.assign(new Error('Too Many Requests'), { statusCode: 429 });
    expect(classifyError(tooMany)).toMatchObject({ class: 'rate_limit', code: '429' });
  });

  it('never leaks credentials from a message or raw', () => {
    const err = Object.assign(new Error('connect failed for postgres://app:s3cretpw@db:5432/x'), {
      code: 'ECONNREFUSED',
    });
    const env = classifyError(err);
    expect(JSON.stringify(env)).not.toContain('s3cretpw');
    const unknown = classifyError(Object.assign(new Error('nope'), { password: 'hunter2', token: 'tok_1' }));
    expect(JSON.stringify(unknown)).not.toContain('hunter2');
    expect(JSON.stringify(unknown)).not.toContain('tok_1');
  });

  it('prefers ctx.source, and maps socket errors under a database system to db', () => {
    const err = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(classifyError(err).source).toBe('network');
    expect(classifyError(err, { system: 'postgresql' }).source).toBe('db');
    expect(classifyError(err, { source: 'sdk', system: 'postgresql' }).source).toBe('sdk');
  });
});

describe('classifyError: validation libraries', () => {
  it.each(['ValidationError', 'ZodError', 'CastError'])('%s → validation', (name) => {
    const err = Object.assign(new Error('invalid input'), { name });
    expect(classifyError(err)).toMatchObject({ class: 'validation', code: name, retryable: false });
  });
});

describe('classifyError: vendor string codes without a typed family', () => {
  it.each<[string, string]>([
    ['resource-exhausted', 'rate_limit'], // Firestore web SDK (gRPC names, kebab-case)
    ['unavailable', 'transient'],
    ['permission-denied', 'authentication'],
    ['auth/too-many-requests', 'rate_limit'], // Firebase Auth
    ['auth/invalid-credential', 'authentication'],
    ['insufficient_quota', 'permanent'],
  ])('%s → %s', (code, cls) => {
    const err = Object.assign(new Error('vendor failure'), { name: 'FirebaseError', code });
    expect(classifyError(err)).toMatchObject({ class: cls, code, source: 'sdk' });
  });

  it('a vendor code beats a bare status (Supabase AuthApiError: 400 invalid_credentials)', () => {
    const err = Object.assign(new Error('Invalid login credentials'), {
      name: 'AuthApiError',
      status: 400,
      code: 'invalid_grant',
    });
    expect(classifyError(err).class).toBe('authentication');
  });

  it('tRPC client errors carry the status in data.httpStatus', () => {
    const err = Object.assign(new Error('Rate limited'), {
      name: 'TRPCClientError',
      data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429 },
    });
    expect(classifyError(err)).toMatchObject({ class: 'rate_limit', code: 'TOO_MANY_REQUESTS' });
  });
});

describe('normalizeUnknown', () => {
  it('reads Errors, primitives and objects like Sentry does', () => {
    expect(normalizeUnknown(new TypeError('bad'))).toMatchObject({ name: 'TypeError', message: 'bad' });
    expect(normalizeUnknown('text')).toMatchObject({ name: 'string', message: 'text', raw: 'text' });
    expect(normalizeUnknown(null)).toMatchObject({
      name: 'null',
      message: 'null was thrown instead of an Error',
    });
    expect(normalizeUnknown(new Error(''))).toMatchObject({ message: 'Error' });
  });

  it('caps depth of the raw copy', () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 50; i++) deep = { next: deep };
    expect(JSON.stringify(normalizeUnknown(deep).raw).length).toBeLessThan(500);
  });
});
