/**
 * Acceptance corpus: real-world failure shapes from drivers and vendors, run against the public
 * classifiers. Each case is its own test, named by its id, so a failure names the gap directly.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { classifyError, classifyHttpResponse } from '../../src/index.js';
import type { ClassifyContext, Envelope, HttpResponseLike } from '../../src/types.js';
import type { ErrorCase, Expected, HttpCase, RetryAfterRange } from './corpus-case.js';
import { aiPaymentSdkCases } from './errors/ai-payment-sdk-cases.js';
import { awsSdkCases } from './errors/aws-sdk-cases.js';
import { httpClientCases } from './errors/http-client-cases.js';
import { httpSdkCases } from './errors/http-sdk-cases.js';
import { mongodbCases } from './errors/mongodb-cases.js';
import { moreDatastoreCases } from './errors/more-datastore-cases.js';
import { moreDriverCases } from './errors/more-driver-cases.js';
import { mssqlCases } from './errors/mssql-cases.js';
import { networkRpcCases } from './errors/network-rpc-cases.js';
import { ormWrapperCases } from './errors/orm-wrapper-cases.js';
import { postgresMysqlCases } from './errors/postgres-mysql-cases.js';
import { realDbCases } from './errors/real-db-cases.js';
import { stopDynamoServer } from './errors/real-dynamodb.js';
import { stopGrpcServer } from './errors/real-grpc.js';
import { realSocketCases } from './errors/real-socket-cases.js';
import { redisCases } from './errors/redis-cases.js';
import { hostileInputs } from './hostile-inputs.js';
import { aiPaymentsCases } from './http/ai-payments-cases.js';
import { awsCases } from './http/aws-cases.js';
import { githubSlackCases } from './http/github-slack-cases.js';
import { googleAzureCases } from './http/google-azure-cases.js';
import { moreVendorCases } from './http/more-vendor-cases.js';
import { protocolCases } from './http/protocol-cases.js';
import { socialMiscCases } from './http/social-misc-cases.js';
import { statusHeaderCases } from './http/status-header-cases.js';

const httpCases: HttpCase[] = [
  ...statusHeaderCases,
  ...githubSlackCases,
  ...protocolCases,
  ...aiPaymentsCases,
  ...awsCases,
  ...googleAzureCases,
  ...moreVendorCases,
  ...socialMiscCases,
];
const errorCases: ErrorCase[] = [
  ...postgresMysqlCases,
  ...mssqlCases,
  ...redisCases,
  ...mongodbCases,
  ...networkRpcCases,
  ...awsSdkCases,
  ...aiPaymentSdkCases,
  ...httpSdkCases,
  ...realDbCases,
  ...ormWrapperCases,
  ...moreDriverCases,
  ...httpClientCases,
  ...realSocketCases,
  ...moreDatastoreCases,
];

const FIELDS = ['class', 'code', 'correlation_id', 'message', 'raw', 'retry_after', 'retryable', 'source'];
const CLASSES = ['validation', 'authentication', 'rate_limit', 'transient', 'permanent'];
/** Low cardinality: the kinds of tool (issue 2), plus the fallback for values nothing recognises. */
const SOURCES = ['http', 'db', 'sdk', 'rpc', 'network', 'messaging', 'unknown'];
/** "A few KiB": generous enough for any sane cap, small enough to catch an uncapped body. */
const RAW_MAX_CHARS = 8 * 1024;
const MESSAGE_MAX_CHARS = 4 * 1024;

afterAll(async () => {
  await Promise.all([stopGrpcServer(), stopDynamoServer()]);
});

function isRange(value: Expected['retry_after']): value is RetryAfterRange {
  return typeof value === 'object' && value !== null;
}

/** Invariants every envelope must satisfy, whatever the input. */
function assertInvariants(env: Envelope, correlationId: string, ctx?: ClassifyContext): void {
  expect(Object.keys(env).sort()).toEqual(FIELDS);
  expect(CLASSES).toContain(env.class);
  if (ctx?.source) expect(env.source).toBe(ctx.source);
  else if (ctx?.system) expect(env.source, 'ctx.system names a database').toBe('db');
  else expect(SOURCES).toContain(env.source);
  expect(typeof env.code).toBe('string');
  expect(typeof env.message).toBe('string');
  expect(env.message.length).toBeLessThanOrEqual(MESSAGE_MAX_CHARS);
  expect(typeof env.retryable).toBe('boolean');
  if (env.retryable) {
    if (env.retry_after !== null) {
      expect(Number.isFinite(env.retry_after)).toBe(true);
      expect(env.retry_after).toBeGreaterThanOrEqual(0);
    }
  } else {
    expect(env.retry_after).toBeNull();
  }
  expect(env.correlation_id).toBe(correlationId);
  const rawJson = JSON.stringify(env.raw);
  expect(typeof rawJson).toBe('string');
  expect(JSON.parse(rawJson)).toEqual(env.raw);
  expect(rawJson.length).toBeLessThanOrEqual(RAW_MAX_CHARS);
}

/** Compares only what the case pins; a clock-dependent retry_after passes when it falls in its range. */
function assertExpected(env: Envelope, expected: Expected): void {
  const got: Record<string, unknown> = { class: env.class, retryable: env.retryable };
  const want: Record<string, unknown> = { class: expected.class, retryable: expected.retryable };
  if (expected.code !== undefined) {
    got.code = env.code;
    want.code = expected.code;
  }
  if (expected.retry_after !== undefined) {
    const range = expected.retry_after;
    const inRange =
      isRange(range) &&
      typeof env.retry_after === 'number' &&
      env.retry_after >= range.min &&
      env.retry_after <= range.max;
    got.retry_after = inRange ? range : env.retry_after;
    want.retry_after = range;
  }
  expect(got, `expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`).toEqual(want);
}

function assertNoSecrets(env: Envelope, secrets: string[] | undefined): void {
  const text = JSON.stringify(env);
  for (const secret of secrets ?? [])
    expect(text, `secret "${secret}" leaked into the envelope`).not.toContain(secret);
}

describe('corpus bookkeeping', () => {
  it('has unique ids, an origin on every case, and at least 150 cases', () => {
    const all = [...httpCases, ...errorCases];
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    for (const c of all) expect(c.origin.length, c.id).toBeGreaterThan(10);
    expect(all.length).toBeGreaterThanOrEqual(150);
  });
});

describe('classifyHttpResponse corpus', () => {
  it.each(httpCases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const input = typeof c.input === 'function' ? c.input() : c.input;
    const correlationId = `corr-${c.id}`;
    const env = classifyHttpResponse(input, { ...c.ctx, correlationId });
    if (c.expected === null) {
      expect(env).toBeNull();
      return;
    }
    expect(env, 'a failure response must produce an envelope').not.toBeNull();
    if (!env) return;
    assertExpected(env, c.expected);
    assertInvariants(env, correlationId, c.ctx);
    assertNoSecrets(env, c.secrets);
  });
});

describe('classifyError corpus', () => {
  it.each(errorCases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const err = await c.build();
    const correlationId = `corr-${c.id}`;
    const env = classifyError(err, { ...c.ctx, correlationId });
    assertExpected(env, c.expected);
    assertInvariants(env, correlationId, c.ctx);
    assertNoSecrets(env, c.secrets);
  });
});

describe('classifyHttpResponse rejects a malformed status with a clear error', () => {
  it.each([0, 99, 1000, Number.NaN, 200.5, '503', undefined])('status %s', (status) => {
    const bad = { status } as unknown as HttpResponseLike;
    expect(() => classifyHttpResponse(bad)).toThrow(/status/i);
  });
});

describe('classifyError never throws on hostile input', () => {
  it.each(hostileInputs.map((h) => [h.id, h] as const))('%s', (_id, h) => {
    let env: Envelope | undefined;
    expect(() => {
      env = classifyError(h.build());
    }).not.toThrow();
    if (!env) throw new Error('classifyError returned nothing');
    assertInvariants(env, '');
    assertNoSecrets(env, h.secrets);
    if (h.expectedClass) expect(env.class).toBe(h.expectedClass);
  });
});
