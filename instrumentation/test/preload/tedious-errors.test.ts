import { createRequire } from 'node:module';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelopeFromSpan } from '../../src/preload/pipeline/fallback-envelope.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { bothWaysRuns, type FixtureResult, runBareAndPreloaded } from './helpers/run-fixture.js';
import { dbClientSpans, envelopeOf, STATUS_ERROR } from './helpers/spans.js';

interface TdsServer {
  port: number;
  close(): Promise<void>;
}
const require = createRequire(import.meta.url);
const { startTdsServer } = require('../fixtures/tds-server/server.cjs') as {
  startTdsServer(options: { userName: string; password: string }): Promise<TdsServer>;
};

const RUNS = bothWaysRuns('tedious-calls.mjs', 'tedious-calls.cjs');

const PASSWORD = 'fl-h16-Tds-pw-5521';
const WRONG_PASSWORD = 'fl-h16-wrong-pw-9034';

const EXPECTED_STDOUT = [
  "login ELOGIN Login failed for user 'fl_app'.",
  'select ok=1',
  'deadlock EREQUEST 1205',
  'unique EREQUEST 2627',
  'batch AggregateError 2627,515',
  'select-rpc ok=1',
  'busy EREQUEST 40501',
  'connection ESOCKET',
  '',
].join('\n');

/** The server's texts, as the mock's error table (SQL Server's sys.messages) formats them. */
const DEADLOCK =
  /^Transaction \(Process ID \d+\) was deadlocked on lock resources with another process and has been chosen as the deadlock victim\. Rerun the transaction\.$/;
const UNIQUE =
  "Violation of UNIQUE KEY constraint 'UQ_fl_accounts_email'. Cannot insert duplicate key in object 'dbo.fl_accounts'. The duplicate key value is (dup@example.test).";
const BUSY =
  'The service is currently busy. Retry the request after 10 seconds. Incident ID: {3F2504E0-4F89-41D3-9A0C-0305E82C3301}. Code: 4194316.';

/** The span of the statement whose text ends with `marker`. */
function statementSpan(spans: ReceivedSpan[], marker: string): ReceivedSpan | undefined {
  return spans.find((s) => String(s.attributes['db.query.text'] ?? '').endsWith(marker));
}

describe.concurrent.each(RUNS)('tedious against the TDS mock under --$mode with $fixture', (run) => {
  let server: TdsServer;
  let receiver: OtlpReceiver;
  let bare: FixtureResult;
  let preloaded: FixtureResult;
  let spans: ReceivedSpan[];

  beforeAll(async () => {
    server = await startTdsServer({ userName: 'fl_app', password: PASSWORD });
    receiver = await startOtlpReceiver();
    const env = {
      TDS_PORT: String(server.port),
      TDS_PASSWORD: PASSWORD,
      TDS_WRONG_PASSWORD: WRONG_PASSWORD,
      OTEL_SERVICE_NAME: `fl-h16-tedious-${run.mode}`,
    };
    [bare, preloaded] = await runBareAndPreloaded(run, env, receiver.url);
    spans = dbClientSpans(receiver.spans, 'microsoft.sql_server');
  });

  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  it('leaves the output and exit code unchanged', () => {
    expect({ code: bare.code, stdout: bare.stdout }).toEqual({ code: 3, stdout: EXPECTED_STDOUT });
    expect({ code: preloaded.code, stdout: preloaded.stdout, stderr: preloaded.stderr }).toEqual({
      code: 3,
      stdout: EXPECTED_STDOUT,
      stderr: '',
    });
  });

  it('classifies the deadlock victim from the RequestError tedious built', () => {
    const span = statementSpan(spans, 'fl:error 1205');
    expect(span?.statusCode).toBe(STATUS_ERROR);
    const envelope = envelopeOf(span);
    expect(envelope).toMatchObject({
      class: 'transient',
      source: 'db',
      code: '1205',
      retryable: true,
      retry_after: 0,
    });
    expect(envelope.message).toMatch(DEADLOCK);
    expect(JSON.parse(String(envelope.raw))).toEqual({
      name: 'Error',
      code: 'EREQUEST',
      number: 1205,
      state: 51,
      class: 13,
      serverName: 'fl-mssql-mock',
      procName: '',
      lineNumber: 1,
    });
  });

  it('classifies a unique violation sent over sp_executesql as validation', () => {
    const span = statementSpan(spans, 'fl:error 2627');
    expect(span?.statusCode).toBe(STATUS_ERROR);
    const envelope = envelopeOf(span);
    expect(envelope).toMatchObject({ class: 'validation', code: '2627', retryable: false, message: UNIQUE });
    expect(envelope.retry_after).toBeUndefined();
    expect(JSON.parse(String(envelope.raw))).toMatchObject({
      number: 2627,
      state: 1,
      class: 14,
      lineNumber: 1,
    });
  });

  it('classifies Azure throttling as rate_limit with the server text', () => {
    const span = statementSpan(spans, 'fl:error 40501');
    expect(span?.statusCode).toBe(STATUS_ERROR);
    const envelope = envelopeOf(span);
    expect(envelope).toMatchObject({
      class: 'rate_limit',
      code: '40501',
      retryable: true,
      retry_after: 10,
      message: BUSY,
    });
    expect(JSON.parse(String(envelope.raw))).toMatchObject({ number: 40501, state: 1, class: 20 });
  });

  it('classifies a two-error batch (AggregateError) by its first known server error', () => {
    const span = statementSpan(spans, 'fl:error 2627,515');
    expect(span?.statusCode).toBe(STATUS_ERROR);
    const envelope = envelopeOf(span);
    expect(envelope).toMatchObject({ class: 'validation', code: '2627', retryable: false, message: UNIQUE });
    expect(JSON.parse(String(envelope.raw))).toMatchObject({ number: 2627, serverName: 'fl-mssql-mock' });
  });

  it('leaves successful statements unclassified, with the correlation id', () => {
    const ok = spans.filter((s) => s.attributes['db.query.text'] === 'SELECT 1 AS ok');
    expect(ok).toHaveLength(2);
    for (const span of ok) {
      expect(envelopeOf(span)).toEqual({ source: 'db', correlation_id: span.traceId });
      expect(span.statusCode).not.toBe(STATUS_ERROR);
    }
  });

  it('exports no password, given or wrong', () => {
    expect(spans.length).toBeGreaterThanOrEqual(6);
    const exported = JSON.stringify(receiver.spans);
    expect(exported).not.toContain(PASSWORD);
    expect(exported).not.toContain(WRONG_PASSWORD);
  });
});

describe('tedious span without a reached error object', () => {
  /** What instrumentation-tedious alone leaves on a failed span (its endSpan in instrumentation.js). */
  const span = (attributes: Record<string, string>) =>
    ({
      attributes: { 'db.system.name': 'microsoft.sql_server', 'error.type': 'RequestError', ...attributes },
      status: { code: STATUS_ERROR, message: 'Lock request time out period exceeded.' },
      events: [],
    }) as unknown as ReadableSpan;

  it('classifies by the server number in db.response.status_code, not by error.type', () => {
    const envelope = envelopeFromSpan(span({ 'db.response.status_code': '1222' }), {
      source: 'db',
      correlationId: 'c-1',
    });
    expect(envelope).toMatchObject({
      class: 'transient',
      code: '1222',
      retryable: true,
      message: 'Lock request time out period exceeded.',
    });
  });

  it("falls back to tedious's own code when there is no server number", () => {
    const envelope = envelopeFromSpan(span({ 'db.response.status_code': 'ECLOSE' }), {
      source: 'db',
      correlationId: 'c-2',
    });
    expect(envelope).toMatchObject({ class: 'transient', code: 'ECLOSE', retryable: true });
  });
});
