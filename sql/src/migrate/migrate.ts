import type { ClickHouseClient } from '@clickhouse/client';
import { applyTtl } from '../ddl/ttl-days.js';
import { BACKFILL_STEPS, type BackfillAction, type BackfillStep, backfillAction } from './backfill-steps.js';
import { runBackfill } from './run-backfill.js';
import { type AppliedStep, readAppliedSteps, recordStep, schemaVersionOf } from './schema-migrations.js';
import { knownSchemaVersion, listSchemaSteps, type SchemaStep } from './schema-steps.js';
import { currentSelectOf, materializedViewOf, viewSelects, viewsChecksum } from './view-definitions.js';

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
    // As the views stand now: applying the schema steps may create views again (applyMigration
    // decides again after them).
    backfills:
      applied.length === 0
        ? [...BACKFILL_STEPS]
        : (await pendingBackfills(client, applied)).map((r) => r.step),
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

/**
 * Applies the plan's schema steps in order (each recorded once it ran), the TTL, then the backfills.
 * A step applied before under another checksum runs again; each materialized view it creates whose
 * definition changed (recreateIfChanged) is created again, its backfill marked for a rebuild.
 */
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
        // On a cluster the views are rendered ON CLUSTER: created again by hand (render-drop).
        if (!o.statementsOf && (await recreateIfChanged(client, statement)))
          progress(
            `${step.file}: view ${materializedViewOf(statement)?.name} created again (its definition changed)`,
          );
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
    const runs = await pendingBackfills(client, await readAppliedSteps(client));
    for (const run of runs) {
      // A rebuilt target fires the views fed from it: their targets are rebuilt after it, which
      // is recorded first, so a crash in between still rebuilds them.
      for (const dependent of run.forces) await markStale(client, dependent);
      progress(await runBackfill(client, run.step, run, ++b, runs.length));
    }
  }
  return { schema: n, backfills: b };
}

interface BackfillRun {
  step: BackfillStep;
  action: BackfillAction;
  checksum: string;
  prior: AppliedStep | undefined;
  /** The later steps fed from this one's target, which its inserts reach. */
  forces: BackfillStep[];
}

/** The backfills not done under their views' current definitions, in order, with what each needs. */
async function pendingBackfills(client: ClickHouseClient, applied: readonly AppliedStep[]) {
  const selects = await viewSelects(
    client,
    BACKFILL_STEPS.flatMap((s) => s.views),
  );
  const forced = new Set<string>();
  const runs: BackfillRun[] = [];
  // A step whose views this schema never created (a sql/ folder older than this code) has nothing
  // to fill from: it waits for the schema step that creates them.
  for (const step of BACKFILL_STEPS.filter((s) => s.views.every((v) => selects.has(v)))) {
    const checksum = viewsChecksum(step.views, selects);
    const action: BackfillAction = forced.has(step.name)
      ? 'rebuild'
      : checksum === ''
        ? 'fill'
        : backfillAction(step, checksum, applied);
    if (action === 'done') continue;
    const prior = applied.find(
      (a) =>
        a.kind === 'backfill' &&
        a.version === step.version &&
        a.name === step.name &&
        a.state === 'started' &&
        (a.checksum === checksum || a.checksum === ''),
    );
    const forces =
      action === 'rebuild' || action === 'resume'
        ? BACKFILL_STEPS.filter((d) => d.version > step.version && d.source === step.target)
        : [];
    for (const d of forces) forced.add(d.name);
    runs.push({ step, action, checksum, prior, forces });
  }
  return runs;
}

/**
 * Before a materialized view of a step applied again is created: when the view exists under
 * another definition than its statement gives today (its SELECT, or a function it calls, changed),
 * the backfills it fills are marked stale and the view is dropped, so the statement creates it
 * again. Whether true. The view misses the inserts of the moment in between; the rebuild that
 * follows recomputes its target from the source.
 */
async function recreateIfChanged(client: ClickHouseClient, statement: string): Promise<boolean> {
  const view = materializedViewOf(statement);
  if (!view) return false;
  const existing = (await viewSelects(client, [view.name])).get(view.name);
  if (existing === undefined || existing === (await currentSelectOf(client, view.select))) return false;
  for (const step of BACKFILL_STEPS.filter((s) => s.views.includes(view.name))) await markStale(client, step);
  await client.command({ query: `DROP VIEW IF EXISTS ${view.name}` });
  return true;
}

/** Marks every record of a backfill stale (and the checksum-less one), so it is rebuilt. */
async function markStale(client: ClickHouseClient, step: BackfillStep): Promise<void> {
  const records = (await readAppliedSteps(client)).filter(
    (a) => a.kind === 'backfill' && a.version === step.version && a.name === step.name,
  );
  const checksums = new Set(['', ...records.map((a) => a.checksum)]);
  for (const checksum of checksums) await recordStep(client, { ...step, checksum }, 'stale', 0);
}
