import type { AppliedStep } from './schema-migrations.js';

/**
 * Rollups fed by a materialized view hold only what was inserted after the view existed. A
 * backfill fills them from the source rows written before: the view's own SELECT (read back from
 * ClickHouse, so the rule has one home, its schema file) over the source rows older than the first
 * time the rollup holds (its cutoff). Heavy (it reads the whole source once), so it is a step of its
 * own: `faultline migrate --apply --backfill` on a server; the embedded all-in-one runs it at start.
 * A span that arrived after the view was created but is timestamped before the cutoff is counted
 * twice; spans arrive within seconds of their timestamp, so that is the minutes before an upgrade.
 *
 * A step is recorded under the checksum of its views' stored SELECTs (viewsChecksum), and runs
 * again as a rebuild when they change: when the migrator creates a view again under a changed
 * definition (a counting rule of 005, or the view's own SELECT), its target holds rows of the old
 * rule, so every row before a new cutoff is deleted and recomputed from the source by the new
 * views. Rebuilding a target rebuilds the steps fed from it (failure_codes_1m from failures):
 * the rebuild's inserts fire their views too.
 */
export interface BackfillStep {
  kind: 'backfill';
  version: number;
  name: string;
  /** The materialized views whose SELECT fills the target (each applied to the same cutoff). */
  views: readonly string[];
  target: string;
  /** The target's time column, whose minimum is the cutoff. */
  targetTime: string;
  source: string;
  sourceTime: string;
  /**
   * The views of `views` that read another table than `source`, with that table's time column: log
   * records write failures too (070), and rebuilding failures replays them after the spans' views.
   */
  viewSources?: Readonly<Record<string, BackfillSource>>;
}

/** A table a backfill replays a view's SELECT over, and its time column (the cutoff's). */
export interface BackfillSource {
  source: string;
  sourceTime: string;
}

/** What a view of a step reads: its own source when it names one, else the step's. */
export function sourceOfView(step: BackfillStep, view: string): BackfillSource {
  return step.viewSources?.[view] ?? { source: step.source, sourceTime: step.sourceTime };
}

export const BACKFILL_STEPS: readonly BackfillStep[] = [
  {
    kind: 'backfill',
    version: 10,
    name: 'failures',
    // The log records' views after the spans': failures_log_informed_mv replaces the guesses the
    // spans' rows hold, so those rows must be there first.
    views: [
      'failures_mv_v3',
      'failures_prior_attempts_mv_v2',
      'failures_from_logs_mv',
      'failures_log_informed_mv',
    ],
    target: 'failures',
    targetTime: 'Timestamp',
    source: 'otel_traces',
    sourceTime: 'Timestamp',
    viewSources: {
      failures_from_logs_mv: { source: 'otel_logs', sourceTime: 'Timestamp' },
      failures_log_informed_mv: { source: 'otel_logs', sourceTime: 'Timestamp' },
    },
  },
  {
    kind: 'backfill',
    version: 20,
    name: 'calls_1m',
    views: ['calls_1m_mv_v2', 'calls_1m_prior_attempts_mv'],
    target: 'calls_1m',
    targetTime: 'minute',
    source: 'otel_traces',
    sourceTime: 'Timestamp',
  },
  {
    kind: 'backfill',
    version: 40,
    name: 'dependency_calls_1m',
    views: ['dependency_calls_1m_mv'],
    target: 'dependency_calls_1m',
    targetTime: 'minute',
    source: 'otel_traces',
    sourceTime: 'Timestamp',
  },
  {
    kind: 'backfill',
    version: 60,
    name: 'service_endpoints',
    views: ['service_endpoints_mv'],
    target: 'service_endpoints',
    targetTime: 'last_seen',
    source: 'otel_traces',
    sourceTime: 'Timestamp',
  },
  {
    kind: 'backfill',
    version: 80,
    name: 'tool_calls',
    views: ['tool_calls_mv'],
    target: 'tool_calls',
    targetTime: 'Timestamp',
    source: 'otel_traces',
    sourceTime: 'Timestamp',
  },
  {
    kind: 'backfill',
    version: 500,
    name: 'workflows_rollup',
    views: ['workflows_rollup_mv_v2'],
    target: 'workflows_rollup',
    targetTime: 'started_at',
    source: 'otel_traces',
    sourceTime: 'Timestamp',
  },
  {
    kind: 'backfill',
    version: 510,
    name: 'failure_codes_1m',
    views: ['failure_codes_1m_mv'],
    target: 'failure_codes_1m',
    targetTime: 'minute',
    source: 'failures',
    sourceTime: 'Timestamp',
  },
  {
    kind: 'backfill',
    version: 520,
    name: 'retry_attempts',
    views: ['retry_attempts_mv_v2', 'retry_attempts_prior_mv'],
    target: 'retry_attempts',
    targetTime: 'Timestamp',
    source: 'otel_traces',
    sourceTime: 'Timestamp',
  },
  {
    kind: 'backfill',
    version: 535,
    name: 'sampled_minutes',
    views: ['sampled_minutes_workflows_mv'],
    target: 'sampled_minutes',
    targetTime: 'minute',
    source: 'workflows_rollup',
    sourceTime: 'started_at',
  },
  {
    kind: 'backfill',
    version: 540,
    name: 'service_names',
    views: ['service_names_mv'],
    target: 'service_names',
    targetTime: 'first_seen',
    source: 'workflows_rollup',
    sourceTime: 'started_at',
  },
];

/** What a backfill step needs done, from its records and its views' checksum now. */
export type BackfillAction =
  /** Recorded under this checksum: nothing. */
  | 'done'
  /** Never recorded: fill what was written before its views existed (cutoff: the target's first row). */
  | 'fill'
  /** Recorded by a release that kept no checksum, and no view changed since: record it. */
  | 'adopt'
  /** Cut short: delete below the recorded cutoff and fill again. */
  | 'resume'
  /** Written by other definitions: delete below a new cutoff, recompute from the source. */
  | 'rebuild';

export function backfillAction(
  step: BackfillStep,
  checksum: string,
  applied: readonly AppliedStep[],
): BackfillAction {
  const records = applied.filter(
    (a) => a.kind === 'backfill' && a.version === step.version && a.name === step.name,
  );
  // Without a checksum of its own, a record of an earlier release stands for the current views
  // (views were renamed, never changed in place, before checksums were kept) unless marked stale.
  const mine = records.find((a) => a.checksum === checksum) ?? records.find((a) => a.checksum === '');
  if (!mine) return records.length === 0 ? 'fill' : 'rebuild';
  if (mine.state === 'applied') return mine.checksum === checksum ? 'done' : 'adopt';
  if (mine.state === 'started') return 'resume';
  return 'rebuild';
}

/**
 * The INSERT that replays a view's SELECT (whose output columns are `columns`) over the source
 * rows before the cutoff, into the view's target by column name: the SELECT's `FROM
 * <source>` becomes a subquery of those rows under the same name, so qualified column references
 * (`otel_traces.SpanKind`) still resolve. The SELECT is the view's own, as ClickHouse stores it.
 */
export function backfillInsert(
  step: BackfillStep,
  asSelect: string,
  columns: readonly string[],
  { source, sourceTime }: BackfillSource = step,
): string {
  const from = new RegExp(`\\bFROM\\s+(?:\`?\\w+\`?\\.)?\`?${source}\`?(?=[\\s)]|$)`);
  if (!from.test(asSelect))
    throw new Error(
      `backfill ${step.name}: the view's SELECT does not read FROM ${source}; update BACKFILL_STEPS.`,
    );
  const bounded = asSelect.replace(
    from,
    `FROM (SELECT * FROM ${source} WHERE ${sourceTime} < {cutoff:DateTime64(9)}) AS ${source}`,
  );
  // By name, as the view writes: INSERT … SELECT alone would match columns by position.
  const list = columns.map((c) => `\`${c.replace(/`/g, '``')}\``).join(', ');
  return `INSERT INTO ${step.target} (${list}) SELECT ${list} FROM (${bounded})`;
}
