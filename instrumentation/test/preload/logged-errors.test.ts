import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/preload/sdk/config.js';
import type { ReceivedLogRecord } from './helpers/otlp-logs.js';
import { type OtlpReceiver, startOtlpReceiver } from './helpers/otlp-receiver.js';
import { bothWaysRuns, type FixtureResult, runFixture } from './helpers/run-fixture.js';
import { closedPortUrl } from './helpers/upstream.js';

// A real job under the preload (logged-errors-core.cjs): pino logs a caught ECONNREFUSED inside a
// span of its own and another with no span around it, the Logs API logs an error with the
// semantic conventions' exception attributes, and pino logs one info line. Real pino, its
// OpenTelemetry instrumentation's log sending, the SDK's LoggerProvider and the OTLP exporter.

const logsConfig = (env: Record<string, string>) => readConfig({}, env);

describe('the logs settings', () => {
  it('are on when OTEL_LOGS_EXPORTER is unset (the specification’s default, otlp) or otlp', () => {
    expect(logsConfig({}).logs).toEqual({
      enabled: true,
      url: undefined,
      headers: undefined,
      protocol: 'http/protobuf',
    });
    expect(logsConfig({ OTEL_LOGS_EXPORTER: 'otlp' }).logs.enabled).toBe(true);
    expect(logsConfig({ OTEL_LOGS_EXPORTER: 'none' }).logs.enabled).toBe(false);
    expect(logsConfig({ OTEL_LOGS_EXPORTER: 'otlp,none' }).logs.enabled).toBe(false);
  });

  it('warn about an exporter the preload does not have', () => {
    const console = logsConfig({ OTEL_LOGS_EXPORTER: 'console' });
    expect(console.logs.enabled).toBe(false);
    expect(console.warnings).toEqual([
      'OTEL_LOGS_EXPORTER="console" is not valid: the preload bundles otlp only: use otlp or none (nothing exported)',
    ]);
    const unknown = logsConfig({ OTEL_LOGS_EXPORTER: 'syslog' });
    expect(unknown.logs.enabled).toBe(true);
    expect(unknown.warnings).toEqual([
      'OTEL_LOGS_EXPORTER="syslog" is not valid: use otlp, or none to stop exporting logged errors (ignored)',
    ]);
  });

  it('go where the spans go, with their token, unless the logs variables say otherwise', () => {
    const env = {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t.example/v1/traces',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'authorization=Bearer%20tok',
      OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: 'http/json',
    };
    expect(logsConfig(env).logs).toEqual({
      enabled: true,
      url: 'https://t.example/v1/logs',
      headers: { authorization: 'Bearer tok' },
      protocol: 'http/json',
    });
    const own = logsConfig({
      ...env,
      OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: 'http://l:4318/v1/logs',
      OTEL_EXPORTER_OTLP_LOGS_HEADERS: 'x-k=v',
    }).logs;
    // The exporter reads its own variables.
    expect(own).toMatchObject({ url: undefined, headers: undefined });
  });
});

interface Run {
  result: FixtureResult;
  /** Every record the receiver got from this run. */
  records: ReceivedLogRecord[];
  /** The span the fixture logged under, as it printed it. */
  span: { traceId: string; spanId: string };
}

/** Runs the job to its end (it flushes on the way out) against its own receiver. */
async function runJob(
  receiver: OtlpReceiver,
  fixture: string,
  mode: 'import' | 'require',
  env: Record<string, string> = {},
): Promise<Run> {
  const result = await runFixture({
    fixture,
    mode,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'nightly-job', ...env },
  });
  const span = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as Run['span'];
  return { result, span, records: receiver.logs.flatMap((l) => l.records) };
}

describe.each(bothWaysRuns('logged-errors.mjs', 'logged-errors.cjs'))(
  'a job that logs its caught errors ($mode, $fixture)',
  ({ mode, fixture }) => {
    let receiver: OtlpReceiver;
    let run: Run;
    let off: Run;

    beforeAll(async () => {
      receiver = await startOtlpReceiver();
      run = await runJob(receiver, fixture, mode);
      const offReceiver = await startOtlpReceiver();
      off = await runJob(offReceiver, fixture, mode, { OTEL_LOGS_EXPORTER: 'none' });
      // The spans still go: only the logs are off.
      expect(offReceiver.spans.map((s) => s.name)).toContain('nightly-sync');
      await offReceiver.close();
    });

    afterAll(async () => {
      await receiver?.close();
    });

    it('exports the failure records only, each with its span and its envelope', () => {
      expect(run.result.code).toBe(0);
      const byBody = Object.fromEntries(run.records.map((r) => [String(r.body), r]));
      // The info line is no failure: never exported.
      expect(Object.keys(byBody).sort()).toEqual([
        'invoice export failed',
        'nightly sync failed',
        'worker could not reach the queue',
      ]);
      const inSpan = byBody['nightly sync failed'];
      expect(inSpan).toMatchObject({
        service: 'nightly-job',
        scope: '@opentelemetry/instrumentation-pino',
        severityNumber: 17,
        traceId: run.span.traceId,
        spanId: run.span.spanId,
      });
      // The span it was logged under was exported too, with the same ids.
      expect(receiver.spans.filter((s) => s.name === 'nightly-sync').map((s) => s.spanId)).toEqual([
        run.span.spanId,
      ]);
      expect(inSpan?.attributes).toMatchObject({
        'faultline.class': 'transient',
        'faultline.source': 'network',
        'faultline.code': 'ECONNREFUSED',
        'faultline.retryable': true,
        'faultline.correlation_id': run.span.traceId,
        'exception.type': 'ECONNREFUSED',
      });
      expect(String(inSpan?.attributes['faultline.message'])).toMatch(
        /^connect ECONNREFUSED 127\.0\.0\.1:\d+$/,
      );

      const spanless = byBody['worker could not reach the queue'];
      expect(spanless).toMatchObject({ traceId: '', spanId: '', severityNumber: 17 });
      expect(spanless?.attributes).toMatchObject({
        'faultline.class': 'transient',
        'faultline.code': 'ECONNREFUSED',
      });
      // Outside a request: no correlation id to give.
      expect(spanless?.attributes['faultline.correlation_id']).toBeUndefined();

      const api = byBody['invoice export failed'];
      expect(api).toMatchObject({ scope: 'billing', traceId: '', severityText: 'ERROR' });
      expect(api?.attributes).toMatchObject({
        'faultline.class': 'transient',
        'faultline.code': 'ECONNRESET',
        'exception.type': 'ECONNRESET',
        'exception.message': 'socket hang up',
      });
    });

    it('exports nothing with OTEL_LOGS_EXPORTER=none, and the job runs the same', () => {
      expect(off.records).toEqual([]);
      expect(off.result.code).toBe(0);
      expect(off.result.stderr).toBe(run.result.stderr);
    });
  },
);

describe('a job whose collector is down', () => {
  it('ends as soon as with its logs off: the exit flush makes one quick attempt', async () => {
    const endpoint = await closedPortUrl();
    const timed = async (env: Record<string, string>) => {
      const started = performance.now();
      const result = await runFixture({
        fixture: 'logged-errors.cjs',
        mode: 'require',
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, ...env },
      });
      expect(result.code).toBe(0);
      return performance.now() - started;
    };
    const off = await timed({ OTEL_LOGS_EXPORTER: 'none' });
    const on = await timed({});
    // The exporter would retry for about 10 s; the exit flush's one attempt is 500 ms at most.
    expect(on - off).toBeLessThan(1500);
  });
});
