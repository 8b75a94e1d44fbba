import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { bothWaysRuns, startService } from './helpers/run-fixture.js';
import { CLIENT, SERVER } from './helpers/spans.js';

const RUNS = bothWaysRuns('attempts.mjs', 'attempts.cjs');
const PG = { host: '127.0.0.1', database: 'test', user: 'postgres' };

/**
 * The HTTP dependency: `/flaky/<key>` answers 503 twice per key, then 200; `/reject` answers 400
 * with a small JSON body and its Content-Length (so the preload peeks it).
 */
async function startUpstream(): Promise<{ url: string; server: Server }> {
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    req.resume();
    const path = req.url ?? '/';
    const n = (seen.get(path) ?? 0) + 1;
    seen.set(path, n);
    const [status, body] = path.startsWith('/flaky/')
      ? n <= 2
        ? [503, { error: { code: 'unavailable', message: 'overloaded, try later' } }]
        : [200, { ok: true }]
      : [400, { error: { code: 'invalid_coupon', message: 'coupon code is malformed' } }];
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** PostgreSQL and MariaDB objects the scenario needs: a query that fails `fails` times, duplicates. */
async function prepareDatabases(sequences: string[]): Promise<void> {
  const client = new pg.Client(PG);
  await client.connect();
  // nextval is not rolled back with the transaction, so each call of the sequence counts once.
  await client.query(`CREATE OR REPLACE FUNCTION fl_h9_flaky(seq regclass, fails int) RETURNS int
    LANGUAGE plpgsql AS $$ BEGIN
      IF nextval(seq) <= fails THEN
        RAISE EXCEPTION 'could not serialize access due to concurrent update' USING ERRCODE = '40001';
      END IF;
      RETURN 1;
    END $$`);
  await client.query('CREATE TABLE IF NOT EXISTS fl_h9_orders (id int PRIMARY KEY)');
  await client.query('INSERT INTO fl_h9_orders (id) VALUES (1) ON CONFLICT DO NOTHING');
  for (const name of sequences) {
    await client.query(`DROP SEQUENCE IF EXISTS ${name}`);
    await client.query(`CREATE SEQUENCE ${name}`);
  }
  await client.end();
  const my = await mysql.createConnection({
    host: '127.0.0.1',
    database: 'test',
    user: 'root',
    password: '',
  });
  await my.query('CREATE TABLE IF NOT EXISTS fl_h9_dup (id INT PRIMARY KEY)');
  await my.query('INSERT IGNORE INTO fl_h9_dup (id) VALUES (1)');
  await my.end();
}

/**
 * One line per client span of a request, in the order they ended: what it was, its attempt, its
 * role or outcome, and the failure before it. Only what the preload wrote, read as the SQL reads it.
 */
function summary(spans: ReceivedSpan[], correlationId: string): string[] {
  return spans
    .filter((s) => s.kind === CLIENT && s.attributes['faultline.correlation_id'] === correlationId)
    .map((s) => {
      const a = s.attributes;
      const statement = a['db.query.text'] ?? a['db.statement'];
      const what =
        a['url.full'] !== undefined
          ? `${a['http.request.method']} ${new URL(String(a['url.full'])).pathname}`
          : statement !== undefined && s.name !== 'connect'
            ? String(statement)
            : s.name;
      const parts = [what, `a${a['faultline.attempt'] ?? 1}`];
      parts.push(String(a['faultline.call_role'] ?? a['faultline.code'] ?? 'ok'));
      if (a['faultline.previous_code'] !== undefined)
        parts.push(`after ${a['faultline.previous_class']} ${a['faultline.previous_code']}`);
      if (a['http.request.resend_count'] !== undefined)
        parts.push(`resend ${a['http.request.resend_count']}`);
      if (a['faultline.misrouted_retry'] === true) parts.push('misrouted');
      if (a['faultline.propagated'] === true) parts.push('propagated');
      return parts.join(' | ');
    });
}

const FLAKY = 'SELECT fl_h9_flaky($1::regclass, 2) AS ok';

/**
 * What one /work request did: a checkout (with its connect when the pool had no client yet) for
 * SELECT 1, a transaction tried three times (a checkout and BEGIN each time; the query failed twice
 * with 40001, then committed), and an HTTP call that answered 503 (body code `unavailable`) twice,
 * then 200. 13 calls, 4 checkouts (+ the first connect); the
 * repeated query and request are attempts 1, 2, 3, each after the failure before it. The checkouts
 * and BEGINs inside the retried transaction are not retries: their previous instances succeeded.
 */
const WORK = (key: string, firstUseOfPool: boolean): string[] => [
  ...(firstUseOfPool ? ['pg.connect | a1 | checkout'] : []),
  'pg-pool.connect | a1 | checkout',
  'SELECT 1 AS one | a1 | ok',
  'pg-pool.connect | a1 | checkout',
  'BEGIN | a1 | ok',
  `${FLAKY} | a1 | 40001`,
  'ROLLBACK | a1 | ok',
  'pg-pool.connect | a1 | checkout',
  'BEGIN | a1 | ok',
  `${FLAKY} | a2 | 40001 | after transient 40001`,
  'ROLLBACK | a1 | ok',
  'pg-pool.connect | a1 | checkout',
  'BEGIN | a1 | ok',
  `${FLAKY} | a3 | ok | after transient 40001`,
  'COMMIT | a1 | ok',
  `GET /flaky/${key} | a1 | unavailable`,
  `GET /flaky/${key} | a2 | unavailable | after transient unavailable | resend 1`,
  `GET /flaky/${key} | a3 | ok | after transient unavailable | resend 2`,
];

/**
 * Waits until the request's server span and its `clientSpans` client spans have been exported (a
 * fetch span whose body the application never reads ends up to 2 s after the response).
 */
async function exported(receiver: OtlpReceiver, correlationId: string, clientSpans: number): Promise<void> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    const mine = receiver.spans.filter((s) => s.attributes['faultline.correlation_id'] === correlationId);
    const arrived =
      mine.some((s) => s.kind === SERVER) && mine.filter((s) => s.kind === CLIENT).length >= clientSpans;
    if (arrived) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`spans of ${correlationId} were not exported`);
}

const TAGS = RUNS.map((run) => `${run.mode}_${run.fixture.replace('.', '_')}`);
// Once for all runs: concurrent CREATE OR REPLACE FUNCTION calls collide in pg_proc.
let prepared: Promise<void>;
beforeAll(() => {
  prepared = prepareDatabases(TAGS.flatMap((tag) => [`fl_h9_seq_loop_${tag}`, `fl_h9_seq_retry_${tag}`]));
  return prepared;
});

const REJECTION = JSON.stringify({ error: { code: 'invalid_coupon', message: 'coupon code is malformed' } });

/**
 * What one /repeat request did: each non-retryable failure repeated once, as it was. The repeat is
 * attempt 2 after the first failure, and misrouted. The fetch whose body is read is classified
 * from it (invalid_coupon) and its span ends when the read does; the unread one is classified from
 * its status, its span's end held until the body wait gives up (up to 2 s: they end last), which is
 * how its repeat used to start before the failure was on record and went unmarked.
 */
const REPEAT = (tag: string): string[] => [
  'INSERT INTO fl_h9_dup (id) VALUES (1) | a1 | 1062',
  'INSERT INTO fl_h9_dup (id) VALUES (1) | a2 | 1062 | after validation 1062 | misrouted',
  'connect | a1 | checkout',
  `set fl_h9_${tag} [1 other arguments] | a1 | ok`,
  `lpush fl_h9_${tag} [1 other arguments] | a1 | WRONGTYPE`,
  `lpush fl_h9_${tag} [1 other arguments] | a2 | WRONGTYPE | after validation WRONGTYPE | misrouted`,
  `del fl_h9_${tag} | a1 | ok`,
  'POST /reject | a1 | invalid_coupon',
  'POST /reject | a2 | invalid_coupon | after validation invalid_coupon | resend 1 | misrouted',
  'POST /reject | a1 | 400',
  'POST /reject | a2 | 400 | after validation 400 | resend 1 | misrouted',
];

/** The demo's failed order: a checkout, BEGIN, the insert that hit 23505, ROLLBACK; answered 422. */
const DUPLICATE = [
  'pg-pool.connect | a1 | checkout',
  'BEGIN | a1 | ok',
  'INSERT INTO fl_h9_orders (id) VALUES ($1) | a1 | 23505',
  'ROLLBACK | a1 | ok',
];

describe.concurrent.each(RUNS)('attempts, roles and echoes under --$mode with $fixture', (run) => {
  const tag = `${run.mode}_${run.fixture.replace('.', '_')}`;
  const ids = { loop: `fl-h9-loop-${tag}`, retry: `fl-h9-retry-${tag}`, repeat: `fl-h9-repeat-${tag}` };
  const duplicateId = `fl-h9-duplicate-${tag}`;
  let receiver: OtlpReceiver;
  let upstream: { url: string; server: Server };
  let answers: Record<string, unknown>;

  beforeAll(async () => {
    [receiver, upstream] = await Promise.all([startOtlpReceiver(), startUpstream()]);
    await prepared;
    const service = await startService({
      fixture: run.fixture,
      mode: run.mode,
      env: {
        OTEL_SERVICE_NAME: `fl-h9-attempts-${tag}`,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        UPSTREAM_URL: upstream.url,
      },
    });
    // One request at a time, each exported before the next, so spans arrive in the order they ended
    // (the exit flush may send its batches beside one in flight).
    const ask = async (path: string, id: string, clientSpans: string[]) => {
      const res = await fetch(`${service.url}${path}`, { headers: { 'x-request-id': id } });
      const answer = { status: res.status, body: await res.json() };
      await exported(receiver, id, clientSpans.length);
      return answer;
    };
    answers = {
      loop: await ask(
        `/work?mode=loop&sequence=fl_h9_seq_loop_${tag}&key=loop`,
        ids.loop,
        WORK('loop', true),
      ),
      retry: await ask(
        `/work?mode=retry&sequence=fl_h9_seq_retry_${tag}&key=retry`,
        ids.retry,
        WORK('retry', false),
      ),
      repeat: await ask(`/repeat?key=${tag}`, ids.repeat, REPEAT(tag)),
      duplicate: await ask('/duplicate', duplicateId, DUPLICATE),
    };
    await service.stop();
  });

  afterAll(async () => {
    upstream?.server.close();
    await receiver?.close();
  });

  it('leaves what the application saw unchanged', () => {
    const work = { status: 200, body: { one: 1, committed: 1, fetched: '{"ok":true}' } };
    expect(answers).toEqual({
      loop: work,
      retry: work,
      repeat: {
        status: 200,
        body: {
          mysql1: 'ER_DUP_ENTRY',
          mysql2: 'ER_DUP_ENTRY',
          redis1: 'WRONGTYPE',
          redis2: 'WRONGTYPE',
          unread: 400,
          read: [REJECTION, REJECTION],
        },
      },
      duplicate: { status: 422, body: { status: 422, code: '23505' } },
    });
  });

  it('numbers a hand-written repeat loop’s attempts by what failed before them', () => {
    expect(summary(receiver.spans, ids.loop)).toEqual(WORK('loop', true));
  });

  it('gives withRetry’s attempts exactly the same attributes', () => {
    expect(summary(receiver.spans, ids.retry)).toEqual(WORK('retry', false));
  });

  it('marks repeats of non-retryable failures misrouted, as attempt 2, held fetch ends included', () => {
    expect(summary(receiver.spans, ids.repeat)).toEqual(REPEAT(tag));
  });

  it('marks the 422 that answered a failed insert as propagated, and only it', () => {
    expect(summary(receiver.spans, duplicateId)).toEqual(DUPLICATE);
    const server = receiver.spans.filter(
      (s) => s.kind === SERVER && s.attributes['faultline.correlation_id'] === duplicateId,
    );
    expect(server.map((s) => [s.attributes['faultline.code'], s.attributes['faultline.propagated']])).toEqual(
      [['422', true]],
    );
    // The requests whose failures were handled answered 200: no failure, nothing propagated.
    for (const id of Object.values(ids)) {
      const handled = receiver.spans.filter(
        (s) => s.kind === SERVER && s.attributes['faultline.correlation_id'] === id,
      );
      expect(
        handled.map((s) => [s.attributes['faultline.class'], s.attributes['faultline.propagated']]),
      ).toEqual([[undefined, undefined]]);
    }
  });
});
