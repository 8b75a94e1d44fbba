import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { bothWaysRuns, type FixtureResult, runBareAndPreloaded } from './helpers/run-fixture.js';
import { CLIENT, envelopeOf, STATUS_ERROR } from './helpers/spans.js';

const RUNS = bothWaysRuns('postgres-js-calls.mjs', 'postgres-js-calls.cjs');

const SCOPE = '@faultline/instrumentation-postgres';
const EMAIL = `fl-pgjs-param-${process.pid}@example.test`;
const NEW_EMAIL = `fl-pgjs-new-param-${process.pid}@example.test`;
const PASSWORD = 'fl-pgjs-Secret-pw-5521';
const ROLE = `fl_pgjs_norole_${process.pid}`;

const EXPECTED_STDOUT = [
  'unique 23505',
  'missing 42P01',
  'select 1 1',
  'batch 1 2',
  'cursor 4',
  'lock 55P03',
  'role 28000',
  'refused ECONNREFUSED',
  'timeout CONNECT_TIMEOUT',
  '',
].join('\n');

const T = 'fl_pgjs_\\d+_\\d+';
const INSERT = new RegExp(`^INSERT INTO "${T}" \\(id, email\\) VALUES \\(\\$1, \\$2\\)$`);
const UPDATE = new RegExp(`^UPDATE "${T}" SET email = \\$1 WHERE id = \\$2$`);
/** Every statement the fixture runs, as the driver built it, and how many times it runs. */
const STATEMENTS: [RegExp, string, number][] = [
  [new RegExp(`^CREATE TABLE ${T} \\(id int PRIMARY KEY, email text NOT NULL UNIQUE\\)$`), 'CREATE', 1],
  [INSERT, 'INSERT', 2],
  [/^SELECT \* FROM fl_pgjs_no_such_table$/, 'SELECT', 1],
  [new RegExp(`^SELECT id FROM "${T}" WHERE email = \\$1$`), 'SELECT', 1],
  [/^SELECT \$1::int AS first_part; SELECT \$1::int AS second_part$/, 'BATCH SELECT', 1],
  [/^SELECT generate_series\(1, 6\) AS n$/, 'SELECT', 1],
  [/^BEGIN$/, 'BEGIN', 1],
  [new RegExp(`^SELECT id FROM "${T}" WHERE id = \\$1 FOR UPDATE$`), 'SELECT', 1],
  // sql.begin()'s own statements, as postgres.js writes them.
  [/^begin $/, 'BEGIN', 1],
  [/^SET LOCAL lock_timeout = '50ms'$/, 'SET', 1],
  [UPDATE, 'UPDATE', 1],
  [/^rollback$/, 'ROLLBACK', 1],
  [/^ROLLBACK$/, 'ROLLBACK', 1],
  [/^SELECT 1 AS role_check$/, 'SELECT', 1],
  [/^SELECT 1 AS refused_check$/, 'SELECT', 1],
  [/^SELECT 1 AS timeout_check$/, 'SELECT', 1],
  [new RegExp(`^DROP TABLE ${T}$`), 'DROP', 1],
];

describe.concurrent.each(RUNS)('postgres.js instrumentation under --$mode with $fixture', (run) => {
  let receiver: OtlpReceiver;
  let bare: FixtureResult;
  let preloaded: FixtureResult;
  let spans: ReceivedSpan[];
  const byText = (text: RegExp) => spans.filter((s) => text.test(String(s.attributes['db.query.text'])));
  const failed = (text: RegExp) => byText(text).find((s) => s.statusCode === STATUS_ERROR);

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const env = {
      PGJS_EMAIL: EMAIL,
      PGJS_NEW_EMAIL: NEW_EMAIL,
      PGJS_ROLE: ROLE,
      PGJS_PASSWORD: PASSWORD,
      OTEL_SERVICE_NAME: `fl-pgjs-${run.mode}`,
    };
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

  it('makes one CLIENT span per query, named and described by the database semconv', () => {
    expect(spans).toHaveLength(STATEMENTS.reduce((n, [, , count]) => n + count, 0));
    for (const [text, operation, count] of STATEMENTS) {
      const matching = byText(text);
      expect(matching, String(text)).toHaveLength(count);
      for (const span of matching) {
        expect(span.kind).toBe(CLIENT);
        expect(span.name).toBe(`${operation} test`);
        expect(span.attributes).toMatchObject({
          'db.system.name': 'postgresql',
          'db.namespace': 'test',
          'db.operation.name': operation,
          'server.address': '127.0.0.1',
        });
        expect(span.attributes['server.port']).toEqual(expect.any(Number));
      }
    }
    expect(byText(/^DROP TABLE/)[0]?.attributes['server.port']).toBe(5432);
    expect(byText(/first_part/)[0]?.attributes['db.operation.batch.size']).toBe(2);
  });

  it('parents every query on the caller span, and runs the continuation in the caller context', () => {
    const job = receiver.spans.find((s) => s.name === 'job' && s.scope === 'fixture');
    expect(job).toBeDefined();
    for (const span of spans) expect(span.parentSpanId).toBe(job?.spanId);
    const after = receiver.spans.find((s) => s.name === 'after-select');
    expect(after?.parentSpanId).toBe(job?.spanId);
  });

  it('classifies a duplicate key as validation from the PostgresError', () => {
    const span = failed(INSERT);
    expect(span?.statusCode).toBe(STATUS_ERROR);
    expect(span?.attributes).toMatchObject({ 'error.type': '23505', 'db.response.status_code': '23505' });
    expect(envelopeOf(span)).toMatchObject({
      class: 'validation',
      code: '23505',
      source: 'db',
      retryable: false,
    });
    expect(envelopeOf(span).message).toMatch(
      /^duplicate key value violates unique constraint "fl_pgjs_\d+_\d+_email_key"$/,
    );
    // Exactly one of the two inserts failed.
    expect(byText(INSERT).filter((s) => s.statusCode === STATUS_ERROR)).toHaveLength(1);
  });

  it('classifies a missing table as permanent: the schema is not what the statement assumes', () => {
    const span = failed(/^SELECT \* FROM fl_pgjs_no_such_table$/);
    expect(span?.attributes['error.type']).toBe('42P01');
    expect(envelopeOf(span)).toMatchObject({
      class: 'permanent',
      code: '42P01',
      source: 'db',
      retryable: false,
      message: 'relation "fl_pgjs_no_such_table" does not exist',
    });
  });

  it('classifies a lock timeout inside sql.begin() as transient', () => {
    const span = failed(UPDATE);
    expect(span?.attributes['error.type']).toBe('55P03');
    expect(envelopeOf(span)).toMatchObject({
      class: 'transient',
      code: '55P03',
      source: 'db',
      retryable: true,
      message: 'canceling statement due to lock timeout',
    });
  });

  it('classifies a role that does not exist (28000) as authentication, at connect', () => {
    const span = failed(/^SELECT 1 AS role_check$/);
    expect(span?.attributes['error.type']).toBe('28000');
    expect(envelopeOf(span)).toMatchObject({
      class: 'authentication',
      code: '28000',
      source: 'db',
      retryable: false,
      message: `role "${ROLE}" does not exist`,
    });
  });

  it('classifies a closed port as transient ECONNREFUSED, on the port it tried', () => {
    const span = failed(/^SELECT 1 AS refused_check$/);
    expect(span?.attributes['error.type']).toBe('ECONNREFUSED');
    expect(span?.attributes['server.port']).not.toBe(5432);
    expect(envelopeOf(span)).toMatchObject({
      class: 'transient',
      code: 'ECONNREFUSED',
      source: 'db',
      retryable: true,
    });
  });

  it('classifies a server that never answers as transient CONNECT_TIMEOUT', () => {
    const span = failed(/^SELECT 1 AS timeout_check$/);
    expect(span?.attributes['error.type']).toBe('CONNECT_TIMEOUT');
    expect(envelopeOf(span)).toMatchObject({
      class: 'transient',
      code: 'CONNECT_TIMEOUT',
      source: 'db',
      retryable: true,
    });
  });

  it('leaves successful queries unfailed and unclassified', () => {
    const ok = spans.filter((s) => s.statusCode !== STATUS_ERROR);
    expect(ok).toHaveLength(spans.length - 6);
    for (const span of ok) {
      expect(span.attributes['faultline.class']).toBeUndefined();
      expect(span.attributes['error.type']).toBeUndefined();
    }
  });

  it('exports no parameter value and no password', () => {
    for (const span of spans) {
      for (const [key, value] of Object.entries(span.attributes)) {
        // faultline.raw is the classifier's copy of the server error, whose `detail` quotes the
        // duplicate key ("Key (email)=(…) already exists."): the classifier's choice, not this
        // instrumentation's.
        if (key === 'faultline.raw') continue;
        expect(String(value), key).not.toContain(EMAIL);
        expect(String(value), key).not.toContain(NEW_EMAIL);
      }
    }
    for (const request of receiver.requests) expect(request.body.includes(PASSWORD)).toBe(false);
    expect(receiver.requests.length).toBeGreaterThan(0);
  });
});
