import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import type { Envelope } from '../../src/types.js';

/**
 * A local stand-in for a vendor's API: it answers every request with the response the test set
 * last (status, headers, body as the vendor documents them), so the real SDK parses a real
 * response and throws what it would throw in production. Binds port 0, closes with the suite.
 */

export interface CannedResponse {
  status: number;
  headers?: Record<string, string | string[]>;
  /** An object is sent as JSON; a string as is. */
  body?: unknown;
  /** Hold the answer this long (for the SDKs' own timeouts). */
  delayMs?: number;
}

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface FakeVendor {
  url: string;
  port: number;
  /** Sets the response every following request gets. */
  answer(res: CannedResponse): void;
  /** Requests received since the last answer(): proves the SDK made exactly one attempt. */
  seen: SeenRequest[];
  close(): Promise<void>;
}

/**
 * One fake vendor for the calling test file: started before its tests, closed after. The handle
 * reads through to the running server, so a file declares it once at the top.
 */
export function useFakeVendor(): FakeVendor {
  let running: FakeVendor | undefined;
  beforeAll(async () => {
    running = await startFakeVendor();
  });
  afterAll(() => running?.close());
  const started = (): FakeVendor => {
    if (!running) throw new Error('the fake vendor is started in beforeAll: use it inside a test');
    return running;
  };
  return {
    get url() {
      return started().url;
    },
    get port() {
      return started().port;
    },
    get seen() {
      return started().seen;
    },
    answer: (res) => started().answer(res),
    close: () => started().close(),
  };
}

export async function startFakeVendor(): Promise<FakeVendor> {
  let current: CannedResponse = { status: 500, body: { error: 'no answer set' } };
  const seen: SeenRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const r = current;
      const send = () => {
        timers.delete(timer);
        if (res.destroyed) return;
        const isText = typeof r.body === 'string' || r.body === undefined;
        const payload = r.body === undefined ? '' : isText ? (r.body as string) : JSON.stringify(r.body);
        const headers: Record<string, string | string[]> = { ...r.headers };
        if (!isText && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type'))
          headers['content-type'] = 'application/json';
        res.writeHead(r.status, headers);
        res.end(payload);
      };
      const timer = setTimeout(send, r.delayMs ?? 0);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    answer(res) {
      current = res;
      seen.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: the SDK meets ECONNREFUSED. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs the SDK call and returns what it threw; fails the test if it did not throw. */
export async function thrownBy(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (err) {
    return err;
  }
  throw new Error('the SDK call was expected to throw');
}

export interface Expected {
  class: Envelope['class'];
  code: string;
  retryable?: boolean;
  /**
   * A number when the server sent a wait; null when the envelope must not carry one; a range
   * when the wait is an epoch reset the clock turns into seconds.
   */
  retry_after?: number | null | { min: number; max: number };
  source?: string;
}

/**
 * Classifies what the SDK threw and checks the envelope against what the vendor's documentation
 * says the response means; no planted credential may appear anywhere in it.
 */
export function expectEnvelope(err: unknown, expected: Expected, secrets: readonly string[]): Envelope {
  const env = classifyError(err);
  const want: Record<string, unknown> = {
    class: expected.class,
    code: expected.code,
    retryable: expected.retryable ?? (expected.class === 'rate_limit' || expected.class === 'transient'),
  };
  const after = expected.retry_after;
  if (after !== undefined && (after === null || typeof after === 'number')) want.retry_after = after;
  if (expected.source !== undefined) want.source = expected.source;
  expect(env).toMatchObject(want);
  if (after !== undefined && after !== null && typeof after === 'object') {
    expect(env.retry_after).toBeGreaterThanOrEqual(after.min);
    expect(env.retry_after).toBeLessThanOrEqual(after.max);
  }
  const text = JSON.stringify(env);
  for (const secret of secrets) expect(text).not.toContain(secret);
  return env;
}

/** An epoch-seconds reset `seconds` ahead, and the range an envelope's wait for it may fall in. */
export function resetIn(seconds: number): { header: string; range: { min: number; max: number } } {
  return {
    header: String(Math.floor(Date.now() / 1000) + seconds),
    range: { min: seconds - 5, max: seconds + 1 },
  };
}

/** Credentials the tests plant in client configs and bodies; none may reach an envelope. */
export const PLANTED = {
  stripeKey: 'sk_test_51PlantedStripeKeyDoNotLeak0000000000000000',
  openaiKey: 'sk-proj-PlantedOpenAIKeyDoNotLeak1234567890abcdef',
  anthropicKey: 'sk-ant-api03-PlantedAnthropicKeyDoNotLeak-0123456789',
  awsSecret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYPLANTEDKEY',
  githubToken: 'ghp_PlantedGithubTokenDoNotLeak0123456789ab',
  slackToken: 'xoxb-1234567890-0987654321-PlantedSlackTokenDoNotLeak',
  twilioToken: 'PlantedTwilioAuthToken0123456789',
  googleKey: 'AIzaSyPlantedGoogleKeyDoNotLeak012345678',
  azureKey: 'UGxhbnRlZEF6dXJlU3RvcmFnZUtleURvTm90TGVhazAxMjM0NTY3ODk=',
  bearer: 'PlantedBearerTokenDoNotLeak0123456789',
  password: 'Pl4nted-Passw0rd-DoNotLeak',
} as const;

export const ALL_SECRETS: readonly string[] = Object.values(PLANTED);
