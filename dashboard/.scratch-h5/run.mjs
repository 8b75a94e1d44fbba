import { readFileSync } from 'node:fs';
import { createClient } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
const client = createClient({ connection: createChdbConnection({ path: process.env.DB ?? '/tmp/h5/db2' }) });
const sqlText = (p) => readFileSync(p, 'utf8').replace(/^--.*$/gm, '').trim();
const [cmd, ...rest] = process.argv.slice(2);
if (cmd === 'schema') { for (const s of readFileSync('schema.sql','utf8').split(';').map(s=>s.trim()).filter(Boolean)) await client.command({ query: s }); }
if (cmd === 'seed') { const t=Date.now(); await client.command({ query: sqlText('../../sql/bench/seed.sql'), query_params: { spans: rest[0], window_s: Number(process.env.WIN ?? 3600), end: Math.floor(Date.now()/1000) }, clickhouse_settings: {} }); console.log('seeded', Date.now()-t); }
if (cmd === 'q') { const params = JSON.parse(rest[1] ?? '{}'); const now=Math.floor(Date.now()/1000); const t=Date.now(); const r = await client.query({ query: sqlText(`../../sql/queries/${rest[0]}.sql`), query_params: { from: now-7200, to: now+60, service: '', source: '', bucket: 300, limit: 10, ...params }, format: 'JSONEachRow' }); const rows = await r.json(); console.log(Date.now()-t, 'ms'); console.log(rows.slice(0, 12)); }
if (cmd === 'sql') { const r = await client.query({ query: rest[0], format: 'JSONEachRow' }); console.log(await r.json()); }
await client.close();
