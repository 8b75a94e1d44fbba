// A collector whose ClickHouse never takes an insert, for the takeover test (`node --import tsx`):
// every request it acknowledges stays in its write-ahead log (<FAULTLINE_DATA_DIR>/wal) until the
// parent kill -9s it. It holds the data directory's and the log's locks as the real CLI does.

import type { Store } from '@faultline/sql';
import { openStore } from '@faultline/sql';
import { startCollector } from '../../src/server/start-collector.js';

const store = await openStore();
const held: Store = Object.assign(Object.create(store) as Store, {
  ensureSchema: () => new Promise<void>(() => {}),
});
const collector = await startCollector({ store: held, port: 0, writerOptions: { maxBatchDelayMs: 20 } });
console.log(`listening on ${collector.url}/v1/traces`);
