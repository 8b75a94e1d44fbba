import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { bothWaysRuns, type FixtureResult, runBareAndPreloaded } from './helpers/run-fixture.js';
import { CLIENT, envelopeOf, SERVER, STATUS_ERROR } from './helpers/spans.js';

const RUNS = bothWaysRuns('grpc-streams.mjs', 'grpc-streams.cjs');

/** What the application printed, without the preload: the preloaded run must print the same. */
const APP_OUTPUT = [
  'statement-ok replies=2 ok',
  'statement-exhausted replies=2 8 fl-str quota exceeded mid-stream grpc-retry-pushback-ms=1500',
  'statement-unavailable replies=1 14 fl-str ledger is draining retry-after=3',
  'statement-cancel replies=1 1 Cancelled on client',
  'upload-ok ok=true',
  'upload-unavailable 14 fl-str ledger is draining retry-after=3',
  'settle-ok replies=2 ok',
  'settle-internal replies=1 13 fl-str settlement invariant broken',
  'settle-slow replies=1 4 Deadline exceeded',
  'charge-crash 2 fl-str ledger offline',
  '',
].join('\n');

const SPAN = 'grpc.fl_h14.Payments/';

/** Each call is told apart by its method and status: the fixture makes no two alike. */
function rpcSpan(
  spans: ReceivedSpan[],
  kind: number,
  method: string,
  status: number,
): ReceivedSpan | undefined {
  const found = spans.filter(
    (s) =>
      s.kind === kind && s.name === `${SPAN}${method}` && s.attributes['rpc.grpc.status_code'] === status,
  );
  expect(found).toHaveLength(1);
  return found[0];
}

/** A failing call: the envelope the client span must carry; the server span sees the same status. */
const FAILURES = [
  {
    call: 'server stream ended by RESOURCE_EXHAUSTED with grpc-retry-pushback-ms',
    method: 'Statement',
    status: 8,
    envelope: {
      code: 'RESOURCE_EXHAUSTED',
      class: 'rate_limit',
      retryable: true,
      message: 'fl-str quota exceeded mid-stream',
      retry_after: 1.5,
    },
  },
  {
    call: 'server stream ended by UNAVAILABLE with a retry-after trailer',
    method: 'Statement',
    status: 14,
    envelope: {
      code: 'UNAVAILABLE',
      class: 'transient',
      retryable: true,
      message: 'fl-str ledger is draining',
      retry_after: 3,
    },
  },
  {
    call: 'client stream answered UNAVAILABLE while the client still wrote',
    method: 'Upload',
    status: 14,
    envelope: {
      code: 'UNAVAILABLE',
      class: 'transient',
      retryable: true,
      message: 'fl-str ledger is draining',
      retry_after: 3,
    },
  },
  {
    call: 'bidi stream ended by INTERNAL',
    method: 'Settle',
    status: 13,
    envelope: {
      code: 'INTERNAL',
      class: 'transient',
      retryable: true,
      message: 'fl-str settlement invariant broken',
    },
  },
  {
    call: 'unary handler failing with a plain Error (UNKNOWN)',
    method: 'Charge',
    status: 2,
    envelope: { code: 'UNKNOWN', class: 'transient', retryable: true, message: 'fl-str ledger offline' },
  },
];

describe.concurrent.each(RUNS)('gRPC streaming calls under --$mode with $fixture', (run) => {
  let receiver: OtlpReceiver;
  let bare: FixtureResult;
  let preloaded: FixtureResult;
  let spans: ReceivedSpan[];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    const env = { OTEL_SERVICE_NAME: `fl-grpc-streams-${run.mode}` };
    [bare, preloaded] = await runBareAndPreloaded(run, env, receiver.url);
    spans = receiver.spans.filter((s) => s.attributes['rpc.system'] === 'grpc');
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('leaves what the application saw, trailers included, and its exit code unchanged', () => {
    expect(bare.stdout).toBe(APP_OUTPUT);
    expect(bare.code).toBe(4);
    expect(preloaded.stdout).toBe(APP_OUTPUT);
    expect(preloaded.code).toBe(4);
    expect(preloaded.stderr).toBe('');
  });

  it('exports one CLIENT and one SERVER span per call, cancelled streams included', () => {
    const statuses = (kind: number) =>
      spans
        .filter((s) => s.kind === kind)
        .map((s) => `${s.name.slice(SPAN.length)} ${s.attributes['rpc.grpc.status_code']}`)
        .sort();
    const calls = [
      'Statement 0',
      'Statement 8',
      'Statement 14',
      'Statement 1',
      'Upload 0',
      'Upload 14',
      'Settle 0',
      'Settle 13',
      'Settle 4',
      'Charge 2',
    ].sort();
    expect(statuses(CLIENT)).toEqual(calls);
    expect(statuses(SERVER)).toEqual(calls);
  });

  it.each(FAILURES)('classifies the $call on both sides', ({ method, status, envelope }) => {
    for (const kind of [CLIENT, SERVER]) {
      const span = rpcSpan(spans, kind, method, status);
      expect(span?.statusCode).toBe(STATUS_ERROR);
      const got = envelopeOf(span);
      // The server's details text, not grpc-js's "8 RESOURCE_EXHAUSTED: …" message.
      expect(got).toMatchObject({ source: 'rpc', ...envelope });
      expect(got.correlation_id).toBe(span?.traceId);
      if (envelope.retry_after === undefined) expect(got.retry_after).toBeUndefined();
      expect(span?.attributes['error.type']).toBe(envelope.code);
    }
  });

  it('classifies a client cancel as permanent on the client and ends the server span', () => {
    for (const kind of [CLIENT, SERVER]) {
      const span = rpcSpan(spans, kind, 'Statement', 1);
      expect(span?.statusCode).toBe(STATUS_ERROR);
      expect(envelopeOf(span)).toMatchObject({
        source: 'rpc',
        code: 'CANCELLED',
        class: 'permanent',
        retryable: false,
        message: 'Cancelled on client',
      });
    }
  });

  it('classifies a deadline the client set as DEADLINE_EXCEEDED on both sides', () => {
    const client = envelopeOf(rpcSpan(spans, CLIENT, 'Settle', 4));
    expect(client).toMatchObject({ code: 'DEADLINE_EXCEEDED', class: 'transient', retryable: true });
    // grpc-js says how long it waited ("Deadline exceeded after 0.101s, …") when the call was under
    // way; on a loaded machine the deadline can pass before the call is sent: "Deadline exceeded".
    expect(String(client.message)).toMatch(/^Deadline exceeded( after |$)/);
    const server = envelopeOf(rpcSpan(spans, SERVER, 'Settle', 4));
    expect(server).toMatchObject({
      code: 'DEADLINE_EXCEEDED',
      class: 'transient',
      retryable: true,
      message: 'Deadline exceeded',
    });
  });

  it('leaves the successful streams without an envelope', () => {
    for (const method of ['Statement', 'Upload', 'Settle']) {
      for (const kind of [CLIENT, SERVER]) {
        const span = rpcSpan(spans, kind, method, 0);
        expect(span?.statusCode).not.toBe(STATUS_ERROR);
        expect(envelopeOf(span).class).toBeUndefined();
      }
    }
  });
});
