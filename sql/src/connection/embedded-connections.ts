import type { ClickHouseClient } from '@clickhouse/client';

/** The part of chDB's connection extension the writer uses: a raw, zero-copy INSERT. */
export interface ChdbRawInsert {
  rawInsert(params: {
    table: string;
    values: Buffer;
    format: string;
    settings?: Record<string, string | number | boolean>;
    signal?: AbortSignal;
  }): Promise<unknown>;
}

// Which clients run on embedded chDB, and their connection's raw insert. A WeakMap keeps the
// ClickHouseClient type untouched, so code holding only `store.client` still gets the fast path.
// On globalThis like the store registry: a second copy of this module (a Next.js bundle) must
// see the clients the first one created.
const KEY = Symbol.for('faultline.store.rawInserters');
const holder = globalThis as { [KEY]?: WeakMap<ClickHouseClient, ChdbRawInsert> };
holder[KEY] ??= new WeakMap();
const rawInserters = holder[KEY];

export function registerEmbeddedClient(client: ClickHouseClient, connection: ChdbRawInsert): void {
  rawInserters.set(client, connection);
}

export function embeddedRawInsert(client: ClickHouseClient): ChdbRawInsert | undefined {
  return rawInserters.get(client);
}
