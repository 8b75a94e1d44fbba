// A collector-side process for the write-ahead log's crash tests, run with `node --import tsx`:
//   <dataDir> <spoolDir> <mode> <service> <requests>
// hold:         acknowledge <requests> × 50 spans (fsync'd), hold every insert, print `acked N`;
//               the parent then kill -9s it between fsync and insert.
// crash-insert: acknowledge, then die by SIGKILL right after the first segment's INSERT returned,
//               before its file is deleted (the replay must be dropped by deduplication).
// replay:       open the same directories, drain, print `rows N distinct N` for <service>.

import type { Store } from '@faultline/sql';
import { openStore } from '@faultline/sql';
import { makeRow } from '../../../sql/test/support/trace-row-fixture.js';
import { createSpanWriter } from '../../src/writer/create-span-writer.js';
import { Spool } from '../../src/writer/spool.js';

const [dataDir, spoolDir, mode, service, requests] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const store = await openStore({ dataDir });

if (mode === 'replay') {
  const writer = createSpanWriter(store, { ackAfter: 'wal', spoolDir });
  await writer.drain();
  const rs = await store.client.query({
    query: 'SELECT count() AS n, uniqExact(SpanId) AS d FROM otel_traces WHERE ServiceName = {s:String}',
    query_params: { s: service },
    format: 'JSONEachRow',
  });
  const { n, d } = (await rs.json<{ n: number; d: number }>())[0]!;
  const left = writer.stats().queueDepth;
  await store.close();
  console.log(`rows ${n} distinct ${d} left ${left}`);
  process.exit(0);
}

let target: Store = store;
if (mode === 'hold') {
  // A ClickHouse that never answers: acknowledged spans exist only in the write-ahead log.
  target = Object.assign(Object.create(store) as Store, { ensureSchema: () => new Promise<void>(() => {}) });
} else if (mode === 'crash-insert') {
  Spool.prototype.remove = () => {
    process.kill(process.pid, 'SIGKILL');
    return new Promise<void>(() => {});
  };
}
const writer = createSpanWriter(target, { ackAfter: 'wal', spoolDir, maxBatchDelayMs: 50 });
const writes = Array.from({ length: Number(requests) }, () =>
  writer.write(Array.from({ length: 50 }, () => makeRow({ ServiceName: service }))),
);
await Promise.all(writes);
console.log(`acked ${Number(requests) * 50}`);
// Wait for the parent's kill -9 (hold) or our own SIGKILL (crash-insert).
setInterval(() => {}, 1_000);
