import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Collector, startCollector } from '../../src/index.js';
import { openTestStore, type TestStore } from '../receiver/helpers/test-store.js';
import { failureCounts } from './helpers/logged-failures.js';

// End to end: a real job under the real preload (`--import`), logging its caught errors with pino
// and the Logs API (instrumentation/test/fixtures/logged-errors-core.cjs), exporting them with its
// spans to a real collector over chDB. The job logs three errors: one inside its `nightly-sync`
// span (which ends well: it caught the error), two with no span around them. Ground truth: two
// failures exist only as log records, each counted once with the envelope the preload gave it; the
// record logged in a span is stored under that span's ids, and the info line is not exported.
const FIXTURE = fileURLToPath(
  new URL('../../../instrumentation/test/fixtures/logged-errors.mjs', import.meta.url),
);
const INSTRUMENTATION = fileURLToPath(new URL('../../../instrumentation/', import.meta.url));
const SERVICE = `nightly-job-${process.pid}`;
let ts: TestStore;
let collector: Collector;
let span: { traceId: string; spanId: string };

beforeAll(async () => {
  ts = await openTestStore('preload-logs');
  collector = await startCollector({
    port: 0,
    store: ts.store,
    writerOptions: { spoolDir: ts.spoolDir, maxBatchDelayMs: 5 },
  });
  const child = spawn(process.execPath, ['--import', '@faultline/instrumentation/register', FIXTURE], {
    cwd: INSTRUMENTATION,
    env: {
      PATH: process.env.PATH ?? '',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: SERVICE,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  span = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
  await collector.settle();
}, 60_000);

afterAll(async () => {
  await collector?.close();
  await ts?.cleanup();
});

describe("the preload's logged errors through the collector", () => {
  it('counts each failure that only a record shows once, with the preload’s envelope', async () => {
    expect(await failureCounts(ts.store, [SERVICE])).toEqual([
      { service: SERVICE, class: 'transient', code: 'ECONNREFUSED', source: 'network', n: 1 },
      { service: SERVICE, class: 'transient', code: 'ECONNRESET', source: 'network', n: 1 },
    ]);
  });

  it('stores every failure record, the one logged in a span under that span’s ids', async () => {
    const { rows } = await ts.store.runReadOnly<Record<string, unknown>>(
      `SELECT Body AS body, SeverityNumber AS severity, TraceId AS trace, SpanId AS span,
              LogAttributes['faultline.class'] AS class, LogAttributes['faultline.classified_by'] AS by
       FROM otel_logs WHERE ServiceName = {s:String} ORDER BY body`,
      { s: SERVICE },
    );
    expect(rows).toEqual([
      { body: 'invoice export failed', severity: 17, trace: '', span: '', class: 'transient', by: '' },
      {
        body: 'nightly sync failed',
        severity: 17,
        trace: span.traceId,
        span: span.spanId,
        class: 'transient',
        by: '',
      },
      {
        body: 'worker could not reach the queue',
        severity: 17,
        trace: '',
        span: '',
        class: 'transient',
        by: '',
      },
    ]);
    const { rows: spans } = await ts.store.runReadOnly<{ name: string }>(
      'SELECT SpanName AS name FROM otel_traces WHERE TraceId = {t:String} AND SpanId = {s:String}',
      { t: span.traceId, s: span.spanId },
    );
    expect(spans).toEqual([{ name: 'nightly-sync' }]);
  });
});
