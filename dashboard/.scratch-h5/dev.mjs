import { readFileSync } from 'node:fs';
const { openStore } = await import('@faultline/collector');
const store = await openStore({ dataDir: '/tmp/h5/dev' });
const [cmd, name, p] = process.argv.slice(2);
const now = Math.floor(Date.now() / 1000);
if (cmd === 'seed') {
  const seedSql = readFileSync('../../sql/bench/seed.sql', 'utf8').replace(/^--.*$/gm, '').trim();
  await store.client.command({ query: seedSql, query_params: { spans: Number(name), window_s: 3600, end: now } });
}
if (cmd === 'q') {
  const t = performance.now();
  const r = await store.runNamed(name, { from: now - 7200, to: now + 60, service: '', source: '', ...JSON.parse(p ?? '{}') });
  console.log((performance.now() - t).toFixed(1), 'ms', r.rows.length, 'rows');
  console.log(r.rows.slice(0, 8));
}
await store.close();
