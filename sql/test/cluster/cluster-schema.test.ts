import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  printClusterSchema,
  readSchemaStatements,
  renderClusterSchema,
  renderClusterTtl,
} from '../../src/cluster/index.js';
import { resolveSqlDir } from '../../src/ddl/sql-dir.js';
import { splitStatements } from '../../src/lexer/split-statements.js';
import { tokenize } from '../../src/lexer/sql-tokens.js';
import { openStore } from '../../src/open-store.js';
import type { Store } from '../../src/types.js';

// Every check below reads ClickHouse's own parser output (chDB): formatQuerySingleLine for the
// canonical text, EXPLAIN AST for engines and the tables a query reads. chDB has no cluster, so
// nothing here is executed; the single-node store opened here applies sql/schema as it always does.
let dir: string;
let store: Store;
const sqlDir = resolveSqlDir();
const rendered = renderClusterSchema(sqlDir, { cluster: 'prod' });
const withDatabase = renderClusterSchema(sqlDir, { cluster: 'prod', database: 'faultline' });

interface Parsed {
  source: string;
  /** formatQuerySingleLine: ClickHouse's canonical text of the statement. */
  text: string;
  /** EXPLAIN AST, one node per line. */
  ast: string[];
}
let parsed: Parsed[];

async function column<T>(query: string, params: Record<string, unknown> = {}): Promise<T[]> {
  const rs = await store.client.query({ query, query_params: params, format: 'JSONCompactEachRow' });
  return (await rs.json<unknown>()).map((row) => (Array.isArray(row) ? row[0] : row) as T);
}
const formatted = async (q: string) =>
  (await column<string>('SELECT formatQuerySingleLine({q:String})', { q }))[0]!;

async function parse(source: string): Promise<Parsed> {
  return { source, text: await formatted(source), ast: await column<string>(`EXPLAIN AST ${source}`) };
}

/** The engine of a CREATE TABLE, from its AST: the function right under "Storage definition". */
const engineOf = (p: Parsed) => {
  const at = p.ast.findIndex((l) => l.trim().startsWith('Storage definition'));
  return at === -1 ? undefined : /Function (\w+)/.exec(p.ast[at + 1]!)?.[1];
};
const tablesRead = (p: Parsed) =>
  p.ast.flatMap((l) => {
    const m = /TableIdentifier (\S+)/.exec(l);
    return m ? [m[1]!] : [];
  });
const created = (p: Parsed) =>
  /^CREATE (?:OR REPLACE )?(TABLE|MATERIALIZED VIEW|VIEW|FUNCTION|DATABASE)/.exec(p.text)?.[1];
const tables = () => parsed.filter((p) => created(p) === 'TABLE');
const views = (kind: string) => parsed.filter((p) => created(p) === kind);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fl-cluster-schema-'));
  store = await openStore({ dataDir: join(dir, 'data'), ttlDays: 0 });
  parsed = [];
  for (const s of rendered) parsed.push(await parse(s));
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the cluster schema (FAULTLINE_CLICKHOUSE_CLUSTER=prod)', () => {
  it('parses statement by statement with ClickHouse’s parser, with or without a database', async () => {
    expect(parsed.length).toBeGreaterThan(40);
    for (const s of withDatabase) expect(await formatted(s)).toMatch(/^(CREATE|ALTER|DROP) /);
  });

  it('runs every statement ON CLUSTER prod', () => {
    for (const p of parsed)
      expect(p.text, p.source).toMatch(/^(CREATE|ALTER|DROP) [^(]*? ON CLUSTER prod( |$)/);
  });

  it('leaves no table with a non-replicated MergeTree engine', () => {
    const engines = tables().map(engineOf);
    expect(engines.every((e) => e === 'Distributed' || /^Replicated\w*MergeTree$/.test(e ?? ''))).toBe(true);
    expect(new Set(engines)).toEqual(
      new Set([
        'Distributed',
        'ReplicatedMergeTree',
        'ReplicatedSummingMergeTree',
        'ReplicatedAggregatingMergeTree',
        'ReplicatedReplacingMergeTree',
      ]),
    );
    for (const p of tables().filter((t) => engineOf(t) !== 'Distributed')) {
      expect(p.text).toContain(`('/clickhouse/tables/{shard}/{database}/`);
      expect(p.text).toContain(`_local', '{replica}'`);
      expect(p.text).not.toContain('non_replicated_deduplication_window');
    }
  });

  it('gives every table of the single-node schema a replicated _local table and a Distributed twin in front', async () => {
    const single = await column<string>(
      "SELECT name FROM system.tables WHERE database = currentDatabase() AND engine LIKE '%MergeTree' ORDER BY name",
    );
    const locals = tables()
      .filter((t) => engineOf(t) !== 'Distributed')
      .map((t) => /^CREATE TABLE IF NOT EXISTS (\w+) /.exec(t.text)![1]);
    expect(locals.sort()).toEqual(single.map((n) => `${n}_local`));
    for (const name of single) {
      const twin = tables().find((t) =>
        t.text.startsWith(`CREATE TABLE IF NOT EXISTS ${name} ON CLUSTER prod AS `),
      );
      expect(twin, name).toBeDefined();
      expect(engineOf(twin!)).toBe('Distributed');
      expect(twin!.text).toContain(
        `AS ${name}_local ENGINE = Distributed(prod, currentDatabase(), ${name}_local, `,
      );
      const local = rendered.findIndex((s) => s.startsWith(`CREATE TABLE IF NOT EXISTS ${name}_local `));
      expect(rendered.indexOf(twin!.source)).toBe(local + 1);
    }
  });

  it('shards trace data by cityHash64(TraceId), merging rollups by their sort key, the rest by rand()', () => {
    const key = (name: string) =>
      new RegExp(
        `^CREATE TABLE IF NOT EXISTS ${name} ON CLUSTER prod AS ${name}_local ENGINE = Distributed\\(prod, currentDatabase\\(\\), ${name}_local, (.*)\\)$`,
      ).exec(tables().find((t) => t.text.startsWith(`CREATE TABLE IF NOT EXISTS ${name} ON`))!.text)?.[1];
    for (const t of ['otel_traces', 'otel_traces_trace_id_ts', 'failures', 'retry_attempts']) {
      expect(key(t), t).toBe('cityHash64(TraceId)');
    }
    expect(key('workflows_rollup')).toBe('cityHash64(workflow_key)');
    expect(key('calls_1m')).toBe('cityHash64(ServiceName, source, class, code, SpanKind, minute)');
    expect(key('failure_codes_1m')).toBe('cityHash64(ServiceName, source, class, code, SpanKind, minute)');
    // The exact counts are inserted directly (no view): each key's rows meet on one shard.
    expect(key('call_counts_1m')).toBe(
      'cityHash64(ServiceName, SpanKind, source, dependency, class, code, entry, propagated, minute)',
    );
    expect(key('alert_events')).toBe('rand()');
    expect(key('alert_deliveries')).toBe('rand()');
    expect(key('alert_silences')).toBe('rand()');
  });

  it('puts every materialized view on the local tables: it reads _local tables only', async () => {
    const mvs = views('MATERIALIZED VIEW');
    const single = await column<string>(
      "SELECT name FROM system.tables WHERE database = currentDatabase() AND engine = 'MaterializedView' ORDER BY name",
    );
    const names = mvs.map((p) => /^CREATE MATERIALIZED VIEW IF NOT EXISTS (\w+) /.exec(p.text)![1]);
    expect([...names].sort()).toEqual(single);
    for (const p of mvs) {
      const read = tablesRead(p);
      expect(read.length, p.source).toBeGreaterThan(0);
      expect(
        read.every((t) => t.endsWith('_local')),
        p.text,
      ).toBe(true);
    }
  });

  it('has each materialized view write its target’s local table, on the shard that received the span', () => {
    const targets = Object.fromEntries(
      views('MATERIALIZED VIEW').map((p) => {
        const m = /^CREATE MATERIALIZED VIEW IF NOT EXISTS (\w+) ON CLUSTER prod TO (\w+) AS /.exec(p.text)!;
        return [m[1], m[2]];
      }),
    );
    expect(targets).toEqual({
      otel_traces_trace_id_ts_mv: 'otel_traces_trace_id_ts_local',
      failures_mv_v3: 'failures_local',
      failures_prior_attempts_mv_v2: 'failures_local',
      failures_from_logs_mv: 'failures_local',
      failures_log_informed_mv: 'failures_local',
      failures_log_first_mv: 'failures_local',
      dependency_calls_1m_mv: 'dependency_calls_1m_local',
      retry_attempts_mv_v2: 'retry_attempts_local',
      retry_attempts_prior_mv: 'retry_attempts_local',
      calls_1m_mv_v2: 'calls_1m_local',
      calls_1m_prior_attempts_mv: 'calls_1m_local',
      workflows_rollup_mv_v2: 'workflows_rollup_local',
      failure_codes_1m_mv: 'failure_codes_1m_local',
      service_names_mv: 'service_names_local',
      sampled_minutes_workflows_mv: 'sampled_minutes_local',
      service_endpoints_mv: 'service_endpoints_local',
      tool_calls_mv: 'tool_calls_local',
    });
  });

  it('has the views read the Distributed tables, and first_hand_failures’ IN subqueries each shard’s own rows', () => {
    const byName = (n: string) =>
      views('VIEW').find((p) => p.text.startsWith(`CREATE OR REPLACE VIEW ${n} `))!;
    // The outbound calls' part is a view of its own, which first_hand_failures reads beside the rest.
    // Each part has two IN subqueries (failed children, failed parent calls), both shard-local.
    expect(tablesRead(byName('first_hand_client_failures'))).toEqual([
      'failures',
      'failures_local',
      'failures_local',
    ]);
    expect(tablesRead(byName('first_hand_failures'))).toEqual([
      'failures',
      'failures_local',
      'failures_local',
    ]);
    expect(byName('first_hand_failures').text).toContain(
      'FROM first_hand_client_failures(`from` = {from:DateTime}, to = {to:DateTime}) UNION ALL',
    );
    // A workflow's partial rows may sit on several shards: FINAL becomes a GROUP BY across them.
    // The service filter's scalar subquery reads the services recorded (540) across the cluster.
    expect(tablesRead(byName('dashboard_workflows'))).toEqual(['workflows_rollup', 'service_names']);
    expect(byName('dashboard_workflows').text).not.toContain('FINAL');
    expect(byName('dashboard_workflows').text).toContain(
      'FROM (SELECT workflow_key, any(correlation_id) AS correlation_id, min(started_at) AS started_at, max(ended_ns) AS ended_ns, groupArrayArray(service_set) AS service_set, groupArrayArray(service_keys) AS service_keys, sum(step_count) AS step_count,',
    );
    expect(byName('dashboard_workflows').text).toContain(
      'sum(failed_attempt_count) AS failed_attempt_count, sum(root_weight) AS root_weight, sum(packed_roots) AS packed_roots, sum(packed_requests) AS packed_requests, sum(packed_entry) AS packed_entry, sum(packed_calls) AS packed_calls, groupBitOr(service_bits) AS service_bits, min(entry_key) AS entry_key FROM workflows_rollup GROUP BY workflow_key) AS workflows_rollup WHERE ',
    );
  });

  it('alters the local tables, and the Distributed table too when a column is added', () => {
    const alters = parsed.filter((p) => p.text.startsWith('ALTER TABLE'));
    const on = (t: string) =>
      alters.filter((p) => p.text.startsWith(`ALTER TABLE ${t} ON`)).map((p) => p.text);
    for (const p of alters.filter((a) => a.text.includes('MODIFY SETTING'))) {
      expect(p.text).toMatch(
        /^ALTER TABLE \w+_local ON CLUSTER prod \(MODIFY SETTING replicated_deduplication_window = 1000\)$/,
      );
    }
    expect(on('workflows_rollup_local').filter((t) => t.includes('ADD COLUMN'))).toHaveLength(10);
    // Ten that add columns and one that drops the first release's pairs (530): both follow on the
    // Distributed table; the mutation that writes the new columns into old parts runs on the local
    // table only.
    expect(on('workflows_rollup')).toHaveLength(11);
    expect(on('workflows_rollup').filter((t) => t.includes('DROP COLUMN'))).toEqual([
      'ALTER TABLE workflows_rollup ON CLUSTER prod (DROP COLUMN IF EXISTS packed_entry_steps), (DROP COLUMN IF EXISTS packed_steps), (DROP COLUMN IF EXISTS packed_entry_attempts), (DROP COLUMN IF EXISTS packed_attempts)',
    ]);
    expect(on('workflows_rollup').some((t) => t.includes('MATERIALIZE COLUMN'))).toBe(false);
    expect(
      on('workflows_rollup_local').filter((t) => t.includes('MATERIALIZE COLUMN packed_requests')),
    ).toHaveLength(1);
    expect(on('failures')).toEqual([
      'ALTER TABLE failures ON CLUSTER prod (ADD COLUMN IF NOT EXISTS `propagated` Bool DEFAULT false AFTER misrouted_retry)',
      "ALTER TABLE failures ON CLUSTER prod (ADD COLUMN IF NOT EXISTS `dependency` LowCardinality(String) DEFAULT '' CODEC(ZSTD(1)) AFTER propagated)",
      'ALTER TABLE failures ON CLUSTER prod (ADD COLUMN IF NOT EXISTS `span_key` UInt64 MATERIALIZED cityHash64(TraceId, SpanId)), (ADD COLUMN IF NOT EXISTS `parent_key` UInt64 MATERIALIZED cityHash64(TraceId, ParentSpanId))',
      "ALTER TABLE failures ON CLUSTER prod (ADD COLUMN IF NOT EXISTS `caller_span_id` String EPHEMERAL ''), (ADD COLUMN IF NOT EXISTS `caller_key` UInt64 MATERIALIZED multiIf(caller_span_id != '', cityHash64(TraceId, caller_span_id), (SpanKind = 'Server') AND (ParentSpanId != ''), cityHash64(TraceId, ParentSpanId), 0))",
      'ALTER TABLE failures ON CLUSTER prod (ADD COLUMN IF NOT EXISTS `weight` Float64 DEFAULT 1 AFTER dependency)',
      "ALTER TABLE failures ON CLUSTER prod (ADD COLUMN IF NOT EXISTS `tool` LowCardinality(String) DEFAULT '' CODEC(ZSTD(1)) AFTER weight), (ADD COLUMN IF NOT EXISTS `agent` LowCardinality(String) DEFAULT '' CODEC(ZSTD(1)) AFTER tool), (ADD COLUMN IF NOT EXISTS `model` LowCardinality(String) DEFAULT '' CODEC(ZSTD(1)) AFTER agent)",
    ]);
  });

  it('renders three representative statements exactly as written by hand', async () => {
    const golden = [
      `CREATE TABLE IF NOT EXISTS calls_1m_local ON CLUSTER prod (
         minute DateTime CODEC(Delta(4), ZSTD(1)), ServiceName LowCardinality(String), SpanKind LowCardinality(String),
         source LowCardinality(String), class LowCardinality(String), code LowCardinality(String), calls Float64,
         failures Float64, retryable_failures Float64, retries Float64, misrouted Float64, duration_ns_sum Float64)
       ENGINE = ReplicatedSummingMergeTree('/clickhouse/tables/{shard}/{database}/calls_1m_local', '{replica}',
         (calls, failures, retryable_failures, retries, misrouted, duration_ns_sum))
       PARTITION BY toYYYYMM(minute)
       ORDER BY (ServiceName, source, class, code, SpanKind, minute)
       SETTINGS ttl_only_drop_parts = 1, replicated_deduplication_window = 1000`,
      `CREATE TABLE IF NOT EXISTS calls_1m ON CLUSTER prod AS calls_1m_local
       ENGINE = Distributed(prod, currentDatabase(), calls_1m_local, cityHash64(ServiceName, source, class, code, SpanKind, minute))`,
      `CREATE MATERIALIZED VIEW IF NOT EXISTS failure_codes_1m_mv ON CLUSTER prod TO failure_codes_1m_local AS
       SELECT toStartOfMinute(Timestamp) AS minute, ServiceName, SpanKind, class, source, code,
         sum(weight) AS failures, sumIf(weight, retryable) AS retryable_failures,
         max(Timestamp) AS last_seen, anyLast(message) AS example_message
       FROM failures_local AS failures
       GROUP BY minute, ServiceName, SpanKind, class, source, code`,
      `ALTER TABLE retry_attempts_local ON CLUSTER prod ADD COLUMN IF NOT EXISTS previous_class LowCardinality(String) AFTER code`,
      `ALTER TABLE retry_attempts ON CLUSTER prod ADD COLUMN IF NOT EXISTS previous_class LowCardinality(String) AFTER code`,
    ];
    const texts = parsed.map((p) => p.text);
    for (const g of golden) expect(texts).toContain(await formatted(g));
  });

  it('lexes the schema and its cluster form as ClickHouse’s own lexer does (tokenizeQuery)', async () => {
    for (const s of [...readSchemaStatements(sqlDir), ...rendered]) {
      const theirs = await column<{ type: string; begin: number; end: number }[]>(
        'SELECT tokenizeQuery({q:String})',
        { q: s },
      );
      const bytes = Buffer.from(s, 'utf8');
      const expected = (theirs[0] as unknown[])
        .map(
          (t) =>
            (Array.isArray(t) ? { begin: t[0], end: t[1], type: t[2] } : t) as {
              begin: number;
              end: number;
              type: string;
            },
        )
        .filter((t) => !['Whitespace', 'Comment', 'EndOfStream'].includes(t.type))
        .map((t) => bytes.subarray(t.begin, t.end).toString('utf8'));
      const ours = tokenize(s)
        .filter((t) => t.type !== 'Whitespace' && t.type !== 'Comment')
        .map((t) => t.text);
      expect(ours, s.slice(0, 60)).toEqual(expected);
    }
  });

  it('prints the whole DDL with a header comment for the migrator (printClusterSchema)', () => {
    const text = printClusterSchema({ FAULTLINE_CLICKHOUSE_CLUSTER: 'prod' });
    expect(
      text.startsWith(
        "-- Faultline schema for the ClickHouse cluster 'prod' (FAULTLINE_CLICKHOUSE_CLUSTER), in database default.",
      ),
    ).toBe(true);
    expect(text).toContain("distributed_product_mode = 'global'");
    // The store's database (default `default`) names every object: ON CLUSTER DDL does not run in the caller's.
    expect(splitStatements(text)).toEqual(
      renderClusterSchema(sqlDir, { cluster: 'prod', database: 'default' }),
    );
    const named = printClusterSchema({
      FAULTLINE_CLICKHOUSE_CLUSTER: 'prod',
      FAULTLINE_CLICKHOUSE_DATABASE: 'faultline',
    });
    expect(splitStatements(named)).toEqual(withDatabase);
    expect(withDatabase[0]).toBe('CREATE DATABASE IF NOT EXISTS faultline ON CLUSTER prod');
  });

  it('prints FAULTLINE_TTL_DAYS as a TTL on every local table that expires', async () => {
    const text = printClusterSchema({ FAULTLINE_CLICKHOUSE_CLUSTER: 'prod', FAULTLINE_TTL_DAYS: '7' });
    const ttl = splitStatements(text).slice(rendered.length + 1); // + CREATE DATABASE
    expect(ttl).toEqual(renderClusterTtl(7, { cluster: 'prod', database: 'default' }));
    expect(ttl).toContain(
      'ALTER TABLE default.failures_local ON CLUSTER prod MODIFY TTL toDateTime(Timestamp) + toIntervalDay(7)',
    );
    expect(ttl).toContain(
      'ALTER TABLE default.service_endpoints_local ON CLUSTER prod MODIFY TTL hour + toIntervalDay(7)',
    );
    expect(ttl).toContain(
      'ALTER TABLE default.call_counts_1m_local ON CLUSTER prod MODIFY TTL minute + toIntervalDay(7)',
    );
    expect(ttl).toContain(
      'ALTER TABLE default.tool_calls_local ON CLUSTER prod MODIFY TTL toDateTime(Timestamp) + toIntervalDay(7)',
    );
    expect(ttl).toHaveLength(13);
    expect(ttl.every((s) => /^ALTER TABLE default\.\w+_local ON CLUSTER prod MODIFY TTL /.test(s))).toBe(
      true,
    );
    for (const s of ttl) expect(await formatted(s)).toContain('MODIFY TTL');
    expect(renderClusterTtl(0, { cluster: 'prod' })).toEqual([]);
    expect(() =>
      printClusterSchema({ FAULTLINE_CLICKHOUSE_CLUSTER: 'prod', FAULTLINE_TTL_DAYS: 'x' }),
    ).toThrow(/FAULTLINE_TTL_DAYS must be a whole number/);
  });
});
