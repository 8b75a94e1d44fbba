import type { Store } from '@faultline/sql';
import { sqlModule } from './sql-module';

/**
 * The dashboard reads through @faultline/sql's Store. `openStore` keeps one Store per process on
 * globalThis, so under `npm start` the pages share the engine the OTLP receiver writes into (an
 * embedded data directory can be opened by one process only).
 */
export async function getStore(): Promise<Store> {
  const { openStore } = await sqlModule();
  return openStore();
}
