import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '@faultline/sql';
import { AggregationTemporalityPreference } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtoExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCollector } from '../../src/index.js';
import { type CollectorProcess, startCollectorProcess } from '../durability/helpers/collector-process.js';
import { callCounts } from './helpers/call-counts.js';
import { countsSession, scenarioRows, sendScenario } from './helpers/export-counts.js';

// Acknowledged counts survive an outage and a crash: a collector whose ClickHouse takes no insert
// (the durability tests' held child) acknowledges the scenario, is kill -9'd, and a collector
// started on the same data directory inserts every acknowledged point exactly once.
const HELD = join(import.meta.dirname, '..', 'durability', 'held-collector-child.ts');
let dir: string;
let held: CollectorProcess | undefined;
let store: Store | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-metrics-restart-'));
});

afterAll(async () => {
  held?.child.kill('SIGKILL');
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('keeps every acknowledged data point through an outage and kill -9, and stores it once', async () => {
  const dataDir = join(dir, 'data');
  held = await startCollectorProcess({ script: HELD, env: { FAULTLINE_DATA_DIR: dataDir } });
  const session = countsSession(
    new ProtoExporter({
      url: `${held.url}/v1/metrics`,
      temporalityPreference: AggregationTemporalityPreference.DELTA,
    }),
    'counts-restart',
  );
  // Acknowledged only once fsync'd to the count log: ClickHouse never answered.
  await sendScenario(session);
  await session.shutdown();
  const health = await (await fetch(`${held.url}/healthz`)).json();
  expect(health.metrics).toMatchObject({ accepted: 7, inserted: 0, pendingInsert: 7 });
  const log = join(dataDir, 'wal', 'call_counts_1m');
  expect(readdirSync(log).some((f) => /\.(open|jsonl)$/.test(f))).toBe(true);

  held.child.kill('SIGKILL');
  await held.exited;
  held = undefined;

  // A new collector on the same data directory takes over the stale locks and replays the log.
  store = await openStore({ dataDir });
  let collector = await startCollector({ store, port: 0 });
  await collector.countWriter!.settle();
  expect(await callCounts(store, 'counts-restart')).toEqual(scenarioRows('counts-restart'));
  expect(readdirSync(log).filter((f) => /\.(open|jsonl)$/.test(f))).toEqual([]);
  await collector.close();

  // Once inserted, a point is gone from the log: another restart adds nothing.
  collector = await startCollector({ store, port: 0 });
  await collector.countWriter!.settle();
  expect(await callCounts(store, 'counts-restart')).toEqual(scenarioRows('counts-restart'));
  await collector.close();
});
