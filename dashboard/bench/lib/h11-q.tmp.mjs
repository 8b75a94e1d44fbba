import { existsSync, readFileSync } from 'node:fs';
import { timeIt } from './timing.mjs';

const dataDir = '/tmp/h11-data';
const fresh = !existsSync(dataDir);
const { openStore } = await import('@faultline/collector');
const store = await openStore({ dataDir });
const endS = 1796000000;
if (fresh) {
  const seedSql = readFileSync('sql/bench/seed.sql', 'utf8')
    .replace(/^--.*$/gm, '')
    .trim();
  await store.client.command({
    query: seedSql,
    query_params: { spans: Number(process.env.N ?? 1000000), window_s: 86400, end: endS },
  });
}
const from = endS - 86400,
  to = endS + 60;
for (const sql of process.argv.slice(2)) {
  const r = await store.runReadOnly(sql, { from, to });
  console.log(
    JSON.stringify(r.rows.slice(0, 3)).slice(0, 300),
    await timeIt(() => store.runReadOnly(sql, { from, to })),
  );
}
await store.close();
process.exit(0);
