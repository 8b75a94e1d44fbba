import type { ClickHouseClient } from '@clickhouse/client';
import { applyTtl } from '../ddl/ttl-days.js';
import { BACKFILL_STEPS, type BackfillStep, backfillInsert } from './backfill-steps.js';
import { type AppliedStep, readAppliedSteps, recordStep, schemaVersionOf } from './schema-migrations.js';
import { knownSchemaVersion, listSchemaSteps, type SchemaStep } from './schema-steps.js';

/** What a migration would do: the database's version, this code's, and the steps not yet applied. */
export interface MigrationPlan {
  current: number;
  known: number;
  schema: SchemaStep[];
  backfills: BackfillStep[];
  applied: AppliedStep[];
}

/** The database was migrated by a newer Faultline: this one must not write to it. */
export class SchemaTooNewError extends Error {
  constructor(
    readonly current: number,
    readonly known: number,
  ) {
    super(
      `the database's schema is version ${current}, newer than this Faultline knows (${known}): ` +
        `run the Faultline release that migrated it, or a newer one (\`faultline migrate\` prints the versions).`,
    );
    this.name = 'SchemaTooNewError';
  }
}

/** The database is behind this code and this process does not migrate (cluster, read-only user). */
export class SchemaBehindError extends Error {
  constructor(
    readonly current: number,
    readonly known: number,
    readonly pending: number,
  ) {
    super(
      `the database's schema is version ${current} with ${pending} step(s) this Faultline (version ${known}) needs: ` +
        'run `faultline migrate --apply` (with a user that may alter the schema) first.',
    );
    this.name = 'SchemaBehindError';
  }
}

export async function planMigration(client: ClickHouseClient, sqlDir: string): Promise<MigrationPlan> {
  const applied = await readAppliedSteps(client);
  const has = (kind: string, version: number, name: string, checksum?: string) =>
    applied.some(
      (a) =>
        a.kind === kind &&
        a.version === version &&
        a.name === name &&
        a.state === 'applied' &&
        (checksum === undefined || a.checksum === checksum),
    );
  return {
    current: schemaVersionOf(applied),
    known: knownSchemaVersion(sqlDir),
    schema: listSchemaSteps(sqlDir).filter((s) => !has('schema', s.version, s.name, s.checksum)),
    backfills: BACKFILL_STEPS.filter((b) => !has('backfill', b.version, b.name)),
    applied,
  };
}

export function assertNotNewer(plan: MigrationPlan): void {
  if (plan.current > plan.known) throw new SchemaTooNewError(plan.current, plan.known);
}

export interface ApplyOptions {
  ttlDays: number;
  /** Run the pending backfills after the schema steps (heavy: a step of its own on a server). */
  backfill: boolean;
  /** One line per step, for the operator watching a long migration. */
  onProgress?: (line: string) => void;
  /** The statements a step runs (the cluster rendering); the step's own by default. */
  statementsOf?: (step: SchemaStep) => string[];
  /** The TTL statements in place of the single-node ALTERs (the cluster's, on the local tables). */
  ttlStatements?: (ttlDays: number) => string[];
}

/** Applies the plan's schema steps in order (each recorded once it ran), the TTL, then the backfills. */
export async function applyMigration(
  client: ClickHouseClient,
  plan: MigrationPlan,
  o: ApplyOptions,
): Promise<{ schema: number; backfills: number }> {
  assertNotNewer(plan);
  const progress = o.onProgress ?? (() => {});
  let n = 0;
  for (const step of plan.schema) {
    const t0 = performance.now();
    const statements = o.statementsOf?.(step) ?? step.statements;
    for (const statement of statements) {
      try {
        await client.command({ query: statement });
      } catch (err) {
        throw new Error(`Applying ${step.file} failed: ${(err as Error)?.message ?? err}`, { cause: err });
      }
    }
    // The first step creates the table this records into.
    await recordStep(client, step, 'applied', performance.now() - t0);
    n++;
    progress(
      `[${n}/${plan.schema.length}] ${step.file}: ${statements.length} statement(s) in ${Math.round(performance.now() - t0)} ms`,
    );
  }
  if (o.ttlStatements) for (const q of o.ttlStatements(o.ttlDays)) await client.command({ query: q });
  else await applyTtl(client, o.ttlDays);
  let b = 0;
  if (o.backfill) {
    for (const step of plan.backfills) {
      const prior = plan.applied.find(
        (a) => a.kind === 'backfill' && a.version === step.version && a.name === step.name,
      );
      progress(await runBackfill(client, step, prior, ++b, plan.backfills.length));
    }
  }
  return { schema: n, backfills: b };
}

async function rows(client: ClickHouseClient, query: string, params: Record<string, unknown> = {}) {
  const rs = await client.query({ query, query_params: params, format: 'JSONEachRow' });
  return (await rs.json()) as Record<string, unknown>[];
}

/**
 * One backfill: the cutoff is the first time the target holds (now, when it holds nothing),
 * recorded before anything is written, so a backfill cut short by a crash deletes what it wrote
 * below that cutoff and runs again, rather than counting twice.
 */
async function runBackfill(
  client: ClickHouseClient,
  step: BackfillStep,
  prior: AppliedStep | undefined,
  i: number,
  of: number,
): Promise<string> {
  const t0 = performance.now();
  let cutoff: string;
  if (prior?.state === 'started') {
    cutoff = prior.detail;
    await client.command({
      query: `ALTER TABLE ${step.target} DELETE WHERE ${step.targetTime} < {cutoff:DateTime64(9)}`,
      query_params: { cutoff },
      clickhouse_settings: { mutations_sync: '2' },
    });
  } else {
    const [r] = await rows(
      client,
      `SELECT count() AS n, toString(min(${step.targetTime})) AS first, toString(now64(9)) AS now FROM ${step.target}`,
    );
    cutoff = Number(r?.n ?? 0) > 0 ? String(r?.first) : String(r?.now);
    await recordStep(client, { ...step, checksum: '' }, 'started', 0, cutoff);
  }
  const [src] = await rows(
    client,
    `SELECT count() AS n FROM ${step.source} WHERE ${step.sourceTime} < {cutoff:DateTime64(9)}`,
    { cutoff },
  );
  const sourceRows = Number(src?.n ?? 0);
  if (sourceRows > 0) {
    for (const view of step.views) {
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
        query: backfillInsert(step, String(v.as_select), columns),
        query_params: { cutoff },
      });
    }
  }
  const ms = performance.now() - t0;
  await recordStep(client, { ...step, checksum: '' }, 'applied', ms, cutoff);
  return `[backfill ${i}/${of}] ${step.target}: ${sourceRows} ${step.source} row(s) before ${cutoff} in ${Math.round(ms)} ms`;
}
