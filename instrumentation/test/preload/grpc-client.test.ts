import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { bothWaysRuns, type FixtureResult, runBareAndPreloaded } from './helpers/run-fixture.js';
import { CLIENT, envelopeOf, STATUS_ERROR } from './helpers/spans.js';
import { closedPortUrl } from './helpers/upstream.js';

const RUNS = bothWaysRuns('grpc-calls.mjs', 'grpc-calls.cjs');

const METHOD = 'grpc.fl_h14.Payments/Charge';

function grpcClientSpans(spans: ReceivedSpan[]): ReceivedSpan[] {
  return spans.filter((s) => s.kind === CLIENT && s.attributes['rpc.system'] === 'grpc');
}

/** The CLIENT span of one call, told apart by its status and the text the application saw. */
function callSpan(clients: ReceivedSpan[], status: number, text: string): ReceivedSpan | undefined {
  return clients.find(
    (s) =>
      s.attributes['rpc.grpc.status_code'] === status &&
      String(s.attributes['grpc.error_message'] ?? '').includes(text),
  );
}

describe.concurrent.each(RUNS)('generated gRPC client under --$mode with $fixture', (run) => {
  let receiver: OtlpReceiver;
  let bare: FixtureResult;
  let preloaded: FixtureResult;
  let clients: ReceivedSpan[];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    // The closed port is a gRPC target: host:port, no scheme.
    const closed = new URL(await closedPortUrl()).host;
    const env = { CLOSED_ADDRESS: closed, OTEL_SERVICE_NAME: `fl-h14-${run.mode}` };
    [bare, preloaded] = await runBareAndPreloaded(run, env, receiver.url);
    clients = grpcClientSpans(receiver.spans);
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('leaves the output and exit code unchanged', () => {
    expect(bare.stdout).toContain('unavailable 14 fl-h14 ledger is draining\n');
    expect(bare.code).toBe(5);
    expect(preloaded.stdout).toBe(bare.stdout);
    expect(preloaded.code).toBe(5);
    expect(preloaded.stderr).toBe('');
  });

  it('exports one CLIENT span per call, successes included', () => {
    const statuses = clients.map((s) => s.attributes['rpc.grpc.status_code']);
    expect(statuses.sort()).toEqual([0, 14, 14, 3, 8].sort());
    for (const span of clients) expect(span.name).toBe(METHOD);
    const ok = clients.find((s) => s.attributes['rpc.grpc.status_code'] === 0);
    // A success carries only the denominators: its source and correlation id, no envelope.
    expect(envelopeOf(ok)).toEqual({ source: 'rpc', correlation_id: ok?.traceId });
    expect(ok?.statusCode).not.toBe(STATUS_ERROR);
  });

  it.each([
    { status: 14, code: 'UNAVAILABLE', cls: 'transient', retryable: true, message: 'ledger is draining' },
    { status: 3, code: 'INVALID_ARGUMENT', cls: 'validation', retryable: false, message: 'amount must be' },
    { status: 8, code: 'RESOURCE_EXHAUSTED', cls: 'rate_limit', retryable: true, message: 'quota exceeded' },
    { status: 14, code: 'UNAVAILABLE', cls: 'transient', retryable: true, message: 'ECONNREFUSED' },
  ])(
    'classifies the $code call ($message) on its CLIENT span',
    ({ status, code, cls, retryable, message }) => {
      const span = callSpan(clients, status, message);
      expect(span?.statusCode).toBe(STATUS_ERROR);
      const envelope = envelopeOf(span);
      expect(envelope).toMatchObject({ source: 'rpc', code, class: cls, retryable });
      expect(String(envelope.message)).toContain(message);
      expect(envelope.correlation_id).toBe(span?.traceId);
      expect(span?.attributes['error.type']).toBeTruthy();
    },
  );
});
