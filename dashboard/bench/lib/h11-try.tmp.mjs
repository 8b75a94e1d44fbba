import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeIt } from './timing.mjs';

const dataDir = mkdtempSync(join(tmpdir(), 'h11-try-'));
const { openStore } = await import('@faultline/collector');
const store = await openStore({ dataDir });
try {
  const endS = Math.floor(Date.now() / 1000);
  const seedSql = readFileSync('sql/bench/seed.sql', 'utf8')
    .replace(/^--.*$/gm, '')
    .trim();
  const N = Number(process.env.N ?? 100000);
  await store.client.command({ query: seedSql, query_params: { spans: N, window_s: 86400, end: endS } });
  const from = endS - 86400,
    to = endS + 60;
  for (const q of ['workflows_summary', 'workflows_by_steps', 'workflows_first_failure']) {
    const r = await store.runNamed(`dashboard/${q}`, { from, to, service: '' });
    console.log(
      q,
      JSON.stringify(r.rows.slice(0, 4)),
      await timeIt(() => store.runNamed(`dashboard/${q}`, { from, to, service: '' })),
    );
  }
  console.log(
    await timeIt(() =>
      store.runNamed('dashboard/workflows_recent', { from, to, service: '', failed_only: false, limit: 50 }),
    ),
  );
  const tr = (
    await store.runReadOnly(
      "SELECT any(TraceId) t FROM otel_traces WHERE SpanAttributes['faultline.correlation_id'] = 'wf-777'",
    )
  ).rows[0].t;
  for (const id of ['wf-777', tr, 'nope']) {
    const r = await store.runNamed('dashboard/request_spans', { id });
    console.log(
      id,
      r.rows.length,
      r.rows.map((x) => x.correlation_id).join(','),
      await timeIt(() => store.runNamed('dashboard/request_spans', { id })),
    );
  }
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
