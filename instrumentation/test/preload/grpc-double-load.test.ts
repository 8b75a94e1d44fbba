import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { type FixtureResult, type PreloadMode, runBareAndPreloaded } from './helpers/run-fixture.js';
import { CLIENT, envelopeOf, SERVER, STATUS_ERROR } from './helpers/spans.js';

/** Each fixture reaches @grpc/grpc-js through these views (see grpc-double-core.cjs). */
const RUNS: { mode: Exclude<PreloadMode, 'none'>; fixture: string; views: string[] }[] = [
  { mode: 'import', fixture: 'grpc-double-load.mjs', views: ['main', 'named', 'dep'] },
  { mode: 'require', fixture: 'grpc-double-load.mjs', views: ['main', 'named', 'dep'] },
  {
    mode: 'import',
    fixture: 'grpc-double-load.cjs',
    views: ['main', 'dep', 'imported', 'importedDefault'],
  },
  {
    mode: 'require',
    fixture: 'grpc-double-load.cjs',
    views: ['main', 'dep', 'imported', 'importedDefault'],
  },
];

describe.concurrent.each(RUNS)(
  'gRPC loaded through several module views under --$mode with $fixture',
  (run) => {
    const calls = run.views.flatMap((view) => [`${view}-generated`, `${view}-raw`]);
    let receiver: OtlpReceiver;
    let bare: FixtureResult;
    let preloaded: FixtureResult;
    let spans: ReceivedSpan[];

    beforeAll(async () => {
      receiver = await startOtlpReceiver();
      const env = { OTEL_SERVICE_NAME: `fl-grpc-double-${run.mode}` };
      [bare, preloaded] = await runBareAndPreloaded(run, env, receiver.url);
      spans = receiver.spans.filter((s) => s.attributes['rpc.system'] === 'grpc');
    });

    afterAll(async () => {
      await receiver?.close();
    });

    it('leaves every call working, with the same output and exit code', () => {
      expect(bare.stdout).toBe(calls.map((c) => `${c} 14 fl-dbl ${c} down\n`).join(''));
      expect(bare.code).toBe(3);
      expect(preloaded.stdout).toBe(bare.stdout);
      expect(preloaded.code).toBe(3);
      expect(preloaded.stderr).toBe('');
    });

    it.each([
      { side: 'CLIENT', kind: CLIENT },
      { side: 'SERVER', kind: SERVER },
    ])('exports exactly one classified $side span per call', ({ kind }) => {
      const sided = spans.filter((s) => s.kind === kind);
      // Told apart by the server's details text, which each call makes unique.
      const messages = sided.map((s) => envelopeOf(s).message).sort();
      expect(messages).toEqual(calls.map((c) => `fl-dbl ${c} down`).sort());
      for (const span of sided) {
        expect(span.statusCode).toBe(STATUS_ERROR);
        expect(envelopeOf(span)).toMatchObject({ source: 'rpc', code: 'UNAVAILABLE', class: 'transient' });
      }
      // A second wrap would nest one client span under another of the same call.
      const ids = new Set(sided.map((s) => s.spanId));
      expect(sided.filter((s) => ids.has(s.parentSpanId))).toEqual([]);
    });
  },
);
