// TEMPORARY (issue 27 metrics migration): dumps a real /metrics scrape to $SCRAPE_OUT. Deleted after.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@faultline/sql';
import { insertBatch, openStore, serializeRows } from '@faultline/sql';
import { expect, it } from 'vitest';
import { dateTime64, makeFailureRow, makeRow } from '../../sql/test/support/trace-row-fixture.js';
import { resolveAlertConfig } from '../src/alerts/alert-config.js';
import { createAlertEvaluator } from '../src/alerts/alert-evaluator.js';
import { startCollector } from '../src/server/start-collector.js';
import { jsonRequest, newTraceId, postTraces } from './receiver/helpers/otlp-client.js';

const MIN = 60_000;
const M0 = Math.floor(Date.now() / MIN) * MIN - 30 * MIN;
let clock = M0 + 130_000;

it('dumps a scrape', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-scrape-dump-'));
  const store: Store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(
    store.client,
    serializeRows([
      makeRow({ Timestamp: dateTime64(M0 + 1000), ServiceName: 'checkout', SpanKind: 'Client' }),
      makeFailureRow(
        { class: 'transient', source: 'http', code: '503', message: 'x', retryable: 'true' },
        { Timestamp: dateTime64(M0 + 2000), ServiceName: 'evil"svc\\\nx' },
      ),
    ]),
  );
  const evaluator = createAlertEvaluator({
    store,
    config: resolveAlertConfig({ FAULTLINE_ALERT_INTERVAL_S: '1' }, { dashboardUrl: 'http://dash.test' }),
    now: () => clock,
  });
  const collector = await startCollector({
    store,
    port: 0,
    grpcPort: 0,
    writerOptions: { spoolDir: join(dir, 'wal') },
    extraMetrics: () => evaluator.metrics(),
  });
  const now = BigInt(Date.now()) * 1_000_000n;
  const traceId = newTraceId();
  const span = (name: string, spanId: string) => ({
    traceId,
    spanId,
    name,
    kind: 2,
    startTimeUnixNano: String(now),
    endTimeUnixNano: String(now + 1_000_000n),
  });
  expect((await postTraces(collector.url, jsonRequest('svc', [span('ok', '0102030405060708'), span('bad', '')]))).status).toBe(200);
  expect((await postTraces(collector.url, '{nope', { 'content-type': 'application/json' })).status).toBe(400);
  await collector.writer.settle();
  await evaluator.evaluate();
  clock = M0 + 2 * MIN + 130_000;
  await evaluator.evaluate();
  const text = await (await fetch(`${collector.url}/metrics`)).text();
  writeFileSync(process.env.SCRAPE_OUT ?? '/tmp/scrape.txt', text);
  await evaluator.stop();
  await collector.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});
