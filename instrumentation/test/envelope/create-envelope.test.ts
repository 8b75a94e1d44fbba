import { describe, expect, it } from 'vitest';
import { createEnvelope, MAX_MESSAGE_CHARS } from '../../src/envelope/create-envelope.js';
import { toModelEnvelope } from '../../src/envelope/to-model-envelope.js';
import type { ErrorClass } from '../../src/types.js';

const base = { source: 'http', code: '500', message: 'boom' };

describe('createEnvelope', () => {
  it.each<[ErrorClass, boolean]>([
    ['validation', false],
    ['authentication', false],
    ['rate_limit', true],
    ['transient', true],
    ['permanent', false],
  ])('derives retryable from class %s → %s', (cls, retryable) => {
    const e = createEnvelope({ ...base, class: cls });
    expect(e.retryable).toBe(retryable);
    expect(e.retry_after).toBeNull();
  });

  it('keeps retry_after only beside retryable, and only a finite number >= 0', () => {
    expect(createEnvelope({ ...base, class: 'rate_limit', retryAfter: 12 }).retry_after).toBe(12);
    expect(createEnvelope({ ...base, class: 'transient', retryAfter: 0 }).retry_after).toBe(0);
    expect(createEnvelope({ ...base, class: 'validation', retryAfter: 12 }).retry_after).toBeNull();
    expect(
      createEnvelope({ ...base, class: 'rate_limit', retryable: false, retryAfter: 12 }).retry_after,
    ).toBeNull();
    expect(createEnvelope({ ...base, class: 'rate_limit', retryAfter: -1 }).retry_after).toBeNull();
    expect(createEnvelope({ ...base, class: 'rate_limit', retryAfter: Number.NaN }).retry_after).toBeNull();
    expect(
      createEnvelope({ ...base, class: 'rate_limit', retryAfter: Number.POSITIVE_INFINITY }).retry_after,
    ).toBeNull();
  });

  it('lets the adapter override retryable for a class', () => {
    const e = createEnvelope({ ...base, class: 'transient', retryable: false, retryAfter: 5 });
    expect(e).toMatchObject({ class: 'transient', retryable: false, retry_after: null });
  });

  it('has exactly the eight fields, correlation_id always a string', () => {
    const e = createEnvelope({ ...base, class: 'permanent' });
    expect(Object.keys(e).sort()).toEqual(
      ['class', 'code', 'correlation_id', 'message', 'raw', 'retry_after', 'retryable', 'source'].sort(),
    );
    expect(e.correlation_id).toBe('');
    expect(createEnvelope({ ...base, class: 'permanent', correlationId: 'req_1' }).correlation_id).toBe(
      'req_1',
    );
    expect(e.raw).toBeNull();
  });

  it('redacts and bounds the message', () => {
    const e = createEnvelope({
      ...base,
      class: 'authentication',
      message: `connect to postgres://app:hunter2@db:5432/app failed ${'x'.repeat(5000)}`,
    });
    expect(e.message).not.toContain('hunter2');
    expect(e.message).toContain('postgres://app:[REDACTED]@db');
    expect(e.message.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
  });

  it('copies raw through toRaw (redacted, JSON-safe)', () => {
    const e = createEnvelope({
      ...base,
      class: 'permanent',
      raw: { headers: { authorization: 'Bearer abc' }, n: 1n },
    });
    expect(e.raw).toEqual({ headers: { authorization: '[REDACTED]' }, n: '1' });
  });

  it('rejects an unknown class with the valid set in the message', () => {
    expect(() => createEnvelope({ ...base, class: 'oops' as ErrorClass })).toThrow(
      /class must be one of validation, authentication, rate_limit, transient, permanent; got "oops"/,
    );
  });
});

describe('toModelEnvelope', () => {
  it('keeps the seven fields and drops raw', () => {
    const e = createEnvelope({
      ...base,
      class: 'rate_limit',
      retryAfter: 3,
      correlationId: 'c1',
      raw: { big: 'x' },
    });
    expect(toModelEnvelope(e)).toEqual({
      class: 'rate_limit',
      source: 'http',
      code: '500',
      message: 'boom',
      retryable: true,
      retry_after: 3,
      correlation_id: 'c1',
    });
  });

  it('explains bad input', () => {
    expect(() => toModelEnvelope(null as never)).toThrow(/expected an envelope/);
  });
});
