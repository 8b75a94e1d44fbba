import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import { httpStatusOfErrorName } from '../../src/error/http-error-names.js';

/** http-errors (a devDependency without type declarations): createError(status, message, props). */
type CreateError = ((status: number, message?: string, props?: Record<string, unknown>) => Error) &
  Record<string, new () => Error>;
const createError = createRequire(import.meta.url)('http-errors') as CreateError;

/** Every 4xx/5xx class http-errors makes, by its status. */
const HTTP_ERRORS = Object.keys(createError)
  .filter((k) => /^\d{3}$/.test(k) && Number(k) >= 400)
  .map((k) => [Number(k), new createError[k]!()] as const);

describe('http-errors class names', () => {
  it('the table names every class http-errors makes, each with its status', () => {
    expect(HTTP_ERRORS.length).toBeGreaterThan(35);
    for (const [status, err] of HTTP_ERRORS)
      expect([err.name, httpStatusOfErrorName(err.name)]).toEqual([err.name, status]);
    expect(httpStatusOfErrorName('TypeError')).toBeUndefined();
    expect(httpStatusOfErrorName('constructor')).toBeUndefined();
  });

  it('the name alone (a stock span) classifies as the error object does (the preload)', () => {
    for (const [status, err] of HTTP_ERRORS) {
      const object = classifyError(err);
      // OpenTelemetry JS keeps exception.type = the name (http-errors sets no code) and the message.
      const named = classifyError({ name: err.name, message: err.message });
      const core = (e: typeof object) => ({
        class: e.class,
        source: e.source,
        code: e.code,
        retryable: e.retryable,
      });
      expect(core(named), err.name).toEqual(core(object));
      expect(named.code).toBe(String(status));
    }
  });

  it('what the scenario names mean: the status each restates, not the name', () => {
    const by = (name: string) => {
      const e = classifyError({ name, message: 'x' });
      return `${e.class} ${e.code} ${e.retryable}`;
    };
    // 503: down for now, retry later (RFC 9110 §15.6.4); 429: back off (RFC 6585 §4).
    expect(by('ServiceUnavailableError')).toBe('transient 503 true');
    expect(by('TooManyRequestsError')).toBe('rate_limit 429 true');
    // The caller's request or credentials must change; a retry fails the same way.
    expect(by('BadRequestError')).toBe('validation 400 false');
    expect(by('UnauthorizedError')).toBe('authentication 401 false');
    expect(by('ForbiddenError')).toBe('authentication 403 false');
    expect(by('NotFoundError')).toBe('permanent 404 false');
  });

  it('an http-errors 404 or 400 is the server answering, not an OpenAI/Anthropic SDK error of that name', () => {
    // Stainless SDKs share the class names; their errors come with `headers` and `error`, not `expose`.
    for (const status of [400, 404, 409, 422, 500]) {
      expect(classifyError(createError(status)).source).toBe('http');
    }
  });

  it('the Retry-After an http-errors 503 carries reaches the envelope', () => {
    const env = classifyError(createError(503, 'down for maintenance', { headers: { 'Retry-After': '30' } }));
    expect([env.class, env.code, env.retryable, env.retry_after]).toEqual(['transient', '503', true, 30]);
  });
});
