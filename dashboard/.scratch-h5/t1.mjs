import { createClient } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
const client = createClient({ connection: createChdbConnection({ path: '/tmp/h5/db1' }) });
const r = await client.query({ query: "SELECT {f:DateTime} AS a, toUnixTimestamp({f:DateTime}) u, timezone() tz, {g:DateTime64(3)} b", query_params: { f: '1700000000', g: '2026-01-01 00:00:00.000' }, format: 'JSONEachRow' });
console.log(await r.json());
await client.close();
