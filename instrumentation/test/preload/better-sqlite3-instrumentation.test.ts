import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { bothWaysRuns, type FixtureResult, runBareAndPreloaded } from './helpers/run-fixture.js';
import { CLIENT, envelopeOf, STATUS_ERROR } from './helpers/spans.js';

const RUNS = bothWaysRuns('better-sqlite3-calls.mjs', 'better-sqlite3-calls.cjs');

const SCOPE = '@faultline/instrumentation-better-sqlite3';
const EMAIL = `fl-bsq3-param-${process.pid}@example.test`;
const NEW_EMAIL = `fl-bsq3-new-param-${process.pid}@example.test`;

const EXPECTED_STDOUT = [
  'unique SQLITE_CONSTRAINT_UNIQUE',
  'syntax SQLITE_ERROR',
  'missing SQLITE_ERROR',
  'busy SQLITE_BUSY',
  'get 1',
  'all 1',
  'iterate 1',
  'memory 1',
  '',
].join('\n');

const INSERT = 'INSERT INTO accounts (id, email) VALUES (?, ?)';
const SYNTAX = 'SELEC id FROM accounts';
const MISSING = 'SELECT * FROM fl_bsq3_no_such_table';
const BUSY = 'UPDATE accounts SET email = ? WHERE id = ?';

/** Every statement the fixture runs (exec, run, get, all, iterate, a transaction's own), and how often. */
const STATEMENTS: [string, string, number][] = [
  ['CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE)', 'CREATE', 1],
  [INSERT, 'INSERT', 2],
  [SYNTAX, 'SELEC', 1],
  [MISSING, 'SELECT', 1],
  ['BEGIN IMMEDIATE', 'BEGIN', 1],
  [BUSY, 'UPDATE', 1],
  ['ROLLBACK', 'ROLLBACK', 1],
  ['SELECT id FROM accounts WHERE email = ?', 'SELECT', 1],
  ['SELECT id, email FROM accounts', 'SELECT', 1],
  ['SELECT id FROM accounts ORDER BY id', 'SELECT', 1],
  ['SELECT email FROM accounts ORDER BY id', 'SELECT', 1],
  ['BEGIN', 'BEGIN', 1],
  ['UPDATE accounts SET email = ? WHERE email = ?', 'UPDATE', 1],
  ['COMMIT', 'COMMIT', 1],
  ['SELECT 1 AS one', 'SELECT', 1],
];

describe.concurrent.each(RUNS)('better-sqlite3 instrumentation under --$mode with $fixture', (run) => {
  let receiver: OtlpReceiver;
  let bare: FixtureResult;
  let preloaded: FixtureResult;
  let spans: ReceivedSpan[];
  const byText = (text: string) => spans.filter((s) => s.attributes['db.query.text'] === text);
  const failed = (text: string) => byText(text).find((s) => s.statusCode === STATUS_ERROR);

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const env = { BSQ3_EMAIL: EMAIL, BSQ3_NEW_EMAIL: NEW_EMAIL, OTEL_SERVICE_NAME: `fl-bsq3-${run.mode}` };
    [bare, preloaded] = await runBareAndPreloaded(run, env, receiver.url);
    spans = receiver.spans.filter((s) => s.scope === SCOPE);
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('leaves the output and exit code unchanged', () => {
    const expected = { code: 3, stdout: EXPECTED_STDOUT, stderr: '' };
    expect({ code: bare.code, stdout: bare.stdout, stderr: bare.stderr }).toEqual(expected);
    expect({ code: preloaded.code, stdout: preloaded.stdout, stderr: preloaded.stderr }).toEqual(expected);
  });

  it('makes one CLIENT span per call, named and described by the database semconv', () => {
    expect(spans).toHaveLength(STATEMENTS.reduce((n, [, , count]) => n + count, 0));
    for (const [text, operation, count] of STATEMENTS) {
      const matching = byText(text);
      expect(matching, text).toHaveLength(count);
      const namespace = text === 'SELECT 1 AS one' ? ':memory:' : 'calls.db';
      for (const span of matching) {
        expect(span.kind).toBe(CLIENT);
        expect(span.name).toBe(`${operation} ${namespace}`);
        expect(span.attributes).toMatchObject({
          'db.system.name': 'sqlite',
          'db.namespace': namespace,
          'db.operation.name': operation,
        });
      }
    }
  });

  it('parents every call on the caller span', () => {
    const job = receiver.spans.find((s) => s.name === 'job' && s.scope === 'fixture');
    expect(job).toBeDefined();
    for (const span of spans) expect(span.parentSpanId).toBe(job?.spanId);
  });

  it('classifies a duplicate UNIQUE value as validation from the SqliteError', () => {
    const span = failed(INSERT);
    expect(span?.attributes['error.type']).toBe('SQLITE_CONSTRAINT_UNIQUE');
    expect(envelopeOf(span)).toMatchObject({
      class: 'validation',
      code: 'SQLITE_CONSTRAINT_UNIQUE',
      source: 'db',
      retryable: false,
      message: 'UNIQUE constraint failed: accounts.email',
    });
    expect(byText(INSERT).filter((s) => s.statusCode === STATUS_ERROR)).toHaveLength(1);
  });

  it('makes a failed span of a prepare that throws: a syntax error, a missing table', () => {
    // SQLITE_ERROR is SQLite's generic SQL error: the statement as written must change.
    expect(failed(SYNTAX)?.attributes['error.type']).toBe('SQLITE_ERROR');
    expect(envelopeOf(failed(SYNTAX))).toMatchObject({
      class: 'validation',
      code: 'SQLITE_ERROR',
      source: 'db',
      retryable: false,
      message: 'near "SELEC": syntax error',
    });
    expect(envelopeOf(failed(MISSING))).toMatchObject({
      class: 'validation',
      code: 'SQLITE_ERROR',
      source: 'db',
      retryable: false,
      message: 'no such table: fl_bsq3_no_such_table',
    });
  });

  it('classifies a write while another connection holds the lock as transient SQLITE_BUSY', () => {
    const span = failed(BUSY);
    expect(span?.attributes['error.type']).toBe('SQLITE_BUSY');
    expect(envelopeOf(span)).toMatchObject({
      class: 'transient',
      code: 'SQLITE_BUSY',
      source: 'db',
      retryable: true,
      message: 'database is locked',
    });
  });

  it('leaves successful calls unfailed and unclassified', () => {
    const ok = spans.filter((s) => s.statusCode !== STATUS_ERROR);
    expect(ok).toHaveLength(spans.length - 4);
    for (const span of ok) {
      expect(span.attributes['faultline.class']).toBeUndefined();
      expect(span.attributes['error.type']).toBeUndefined();
    }
  });

  it('exports no parameter value and no directory of the database file', () => {
    for (const request of receiver.requests) {
      expect(request.body.includes(EMAIL)).toBe(false);
      expect(request.body.includes(NEW_EMAIL)).toBe(false);
      expect(request.body.includes(join(tmpdir(), 'fl-bsq3-'))).toBe(false);
    }
    expect(receiver.requests.length).toBeGreaterThan(0);
  });
});
