import type { ClickHouseClient } from '@clickhouse/client';
import { type BackfillAction, type BackfillStep, backfillInsert, sourceOfView } from './backfill-steps.js';
import { type AppliedStep, recordStep } from './schema-migrations.js';

async function rows(client: ClickHouseClient, query: string, params: Record<string, unknown> = {}) {
  const rs = await client.query({ query, query_params: params, format: 'JSONEachRow' });
  return (await rs.json()) as Record<string, unknown>[];
}

/**
 * The cutoff of a fill: the first time the target holds (now, when it holds nothing), so only what
 * its views never saw is filled. Of a rebuild: past every source row and now, on a whole minute
 * (a minute rollup's row below it holds only source rows below it), so every row the old
 * definitions wrote is recomputed.
 */
async function newCutoff(client: ClickHouseClient, step: BackfillStep, action: BackfillAction) {
  if (action === 'rebuild') {
    const [r] = await rows(
      client,
      `SELECT toString(toDateTime64(toStartOfMinute(greatest(now64(9), (SELECT max(${step.sourceTime}) FROM ${step.source}))), 9) + toIntervalMinute(1)) AS cutoff`,
    );
    return String(r?.cutoff);
  }
  const [r] = await rows(
    client,
    `SELECT count() AS n, toString(min(${step.targetTime})) AS first, toString(now64(9)) AS now FROM ${step.target}`,
  );
  return Number(r?.n ?? 0) > 0 ? String(r?.first) : String(r?.now);
}

/**
 * One backfill (fill, resume or rebuild; 'adopt' only records). The cutoff is recorded before
 * anything is written, so a backfill cut short by a crash deletes what it wrote below that cutoff
 * and runs again, rather than counting twice; a rebuild deletes the old rows below it first.
 */
export async function runBackfill(
  client: ClickHouseClient,
  step: BackfillStep,
  run: { action: BackfillAction; checksum: string; prior: AppliedStep | undefined },
  i: number,
  of: number,
): Promise<string> {
  const t0 = performance.now();
  const record = { ...step, checksum: run.checksum };
  if (run.action === 'adopt') {
    await recordStep(client, record, 'applied', 0, 'adopted');
    return `[backfill ${i}/${of}] ${step.target}: recorded under its views' checksum ${run.checksum}`;
  }
  let cutoff: string;
  if (run.action === 'resume' && run.prior) {
    cutoff = run.prior.detail;
    if (run.prior.checksum !== run.checksum) await recordStep(client, record, 'started', 0, cutoff);
  } else {
    cutoff = await newCutoff(client, step, run.action);
    await recordStep(client, record, 'started', 0, cutoff);
  }
  if (run.action !== 'fill') {
    await client.command({
      query: `ALTER TABLE ${step.target} DELETE WHERE ${step.targetTime} < {cutoff:DateTime64(9)}`,
      query_params: { cutoff },
      clickhouse_settings: { mutations_sync: '2' },
    });
  }
  // Rows before the cutoff in each table the step's views read (the step's source first).
  const sourceRows = new Map<string, number>();
  for (const view of step.views) {
    const { source, sourceTime } = sourceOfView(step, view);
    if (sourceRows.has(source)) continue;
    const [src] = await rows(
      client,
      `SELECT count() AS n FROM ${source} WHERE ${sourceTime} < {cutoff:DateTime64(9)}`,
      { cutoff },
    );
    sourceRows.set(source, Number(src?.n ?? 0));
  }
  for (const view of step.views) {
    const from = sourceOfView(step, view);
    if (sourceRows.get(from.source) === 0) continue;
    const [v] = await rows(
      client,
      'SELECT as_select FROM system.tables WHERE database = currentDatabase() AND name = {v:String}',
      { v: view },
    );
    if (!v)
      throw new Error(
        `backfill ${step.name}: the view ${view} does not exist; apply the schema steps first.`,
      );
    const columns = (
      await rows(
        client,
        'SELECT name FROM system.columns WHERE database = currentDatabase() AND table = {v:String} ORDER BY position',
        { v: view },
      )
    ).map((c) => String(c.name));
    await client.command({
      query: backfillInsert(step, String(v.as_select), columns, from),
      query_params: { cutoff },
    });
  }
  const ms = performance.now() - t0;
  await recordStep(client, record, 'applied', ms, cutoff);
  const verb = run.action === 'rebuild' ? 'rebuilt from' : run.action === 'resume' ? 'resumed,' : '';
  const others = [...sourceRows]
    .filter(([source]) => source !== step.source)
    .map(([source, n]) => `, and ${n} ${source} row(s)`)
    .join('');
  return `[backfill ${i}/${of}] ${step.target}: ${verb ? `${verb} ` : ''}${sourceRows.get(step.source) ?? 0} ${step.source} row(s) before ${cutoff}${others} in ${Math.round(ms)} ms`;
}
