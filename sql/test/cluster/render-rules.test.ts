import { describe, expect, it } from 'vitest';
import { renderClusterSchema } from '../../src/cluster/index.js';

// Schema files another engineer may add: the renderer is a transformation of whatever exists.
const BASE = [
  `CREATE TABLE IF NOT EXISTS otel_traces (TraceId String, SpanId String, Timestamp DateTime64(9))
   ENGINE = MergeTree() ORDER BY Timestamp SETTINGS non_replicated_deduplication_window = 1000`,
  `CREATE TABLE IF NOT EXISTS failures (TraceId String, ServiceName String, Timestamp DateTime64(9), code String)
   ENGINE = MergeTree() ORDER BY (ServiceName, Timestamp)`,
];
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const render = (extra: string[], database?: string) =>
  renderClusterSchema([...BASE, ...extra], { cluster: 'c1', ...(database ? { database } : {}) }).map(squash);

describe('renderClusterSchema on statements it has not seen before', () => {
  it('a new column goes to the local and the Distributed table', () => {
    const out = render([
      'ALTER TABLE failures ADD COLUMN IF NOT EXISTS dependency LowCardinality(String) AFTER code',
    ]);
    expect(out.slice(-2)).toEqual([
      'ALTER TABLE failures_local ON CLUSTER c1 ADD COLUMN IF NOT EXISTS dependency LowCardinality(String) AFTER code',
      'ALTER TABLE failures ON CLUSTER c1 ADD COLUMN IF NOT EXISTS dependency LowCardinality(String) AFTER code',
    ]);
  });

  it('a mixed ALTER sends only the column commands to the Distributed table', () => {
    const out = render([
      'ALTER TABLE failures MODIFY SETTING non_replicated_deduplication_window = 10, ADD COLUMN x UInt8, MODIFY TTL toDateTime(Timestamp) + INTERVAL 1 DAY',
    ]);
    expect(out.slice(-2)).toEqual([
      'ALTER TABLE failures_local ON CLUSTER c1 MODIFY SETTING replicated_deduplication_window = 10, ADD COLUMN x UInt8, MODIFY TTL toDateTime(Timestamp) + INTERVAL 1 DAY',
      'ALTER TABLE failures ON CLUSTER c1 ADD COLUMN x UInt8',
    ]);
  });

  it('a new rollup that merges rows is sharded by its sort key and fed shard-locally', () => {
    const out = render([
      `CREATE TABLE deps_1m (minute DateTime, dependency String, n UInt64)
       ENGINE = SummingMergeTree ORDER BY (dependency, minute)`,
      `CREATE MATERIALIZED VIEW deps_1m_mv TO deps_1m AS
       SELECT toStartOfMinute(Timestamp) AS minute, code AS dependency, count() AS n FROM failures f GROUP BY ALL`,
    ]);
    expect(out.slice(-3)).toEqual([
      "CREATE TABLE IF NOT EXISTS deps_1m_local ON CLUSTER c1 (minute DateTime, dependency String, n UInt64) ENGINE = ReplicatedSummingMergeTree('/clickhouse/tables/{shard}/{database}/deps_1m_local', '{replica}') ORDER BY (dependency, minute)",
      'CREATE TABLE IF NOT EXISTS deps_1m ON CLUSTER c1 AS deps_1m_local ENGINE = Distributed(c1, currentDatabase(), deps_1m_local, cityHash64(dependency, minute))',
      'CREATE MATERIALIZED VIEW IF NOT EXISTS deps_1m_mv ON CLUSTER c1 TO deps_1m_local AS SELECT toStartOfMinute(Timestamp) AS minute, code AS dependency, count() AS n FROM failures_local f GROUP BY ALL',
    ]);
  });

  it('a view whose IN subquery reads a table not placed by trace uses GLOBAL IN', () => {
    const out = render([
      'CREATE TABLE r (k String, n UInt64) ENGINE = SummingMergeTree ORDER BY k',
      'CREATE VIEW v AS SELECT * FROM failures WHERE code NOT IN (SELECT k FROM r WHERE n > 0) AND code IN (SELECT k FROM r)',
    ]);
    expect(out.at(-1)).toBe(
      'CREATE VIEW IF NOT EXISTS v ON CLUSTER c1 AS SELECT * FROM failures WHERE code GLOBAL NOT IN (SELECT k FROM r WHERE n > 0) AND code GLOBAL IN (SELECT k FROM r)',
    );
  });

  it('a view joining trace tables joins the local table on each shard; FROM inside a function is no table', () => {
    const out = render([
      "CREATE OR REPLACE VIEW j AS SELECT extract(f.code FROM 'x') AS e, trim(BOTH ' ' FROM failures) AS t FROM failures AS f INNER JOIN otel_traces t USING (TraceId)",
    ]);
    expect(out.at(-1)).toBe(
      "CREATE OR REPLACE VIEW j ON CLUSTER c1 AS SELECT extract(f.code FROM 'x') AS e, trim(BOTH ' ' FROM failures) AS t FROM failures AS f INNER JOIN otel_traces_local t USING (TraceId)",
    );
  });

  it('a view reading a merging rollup FINAL merges across shards with GROUP BY, columns added later included', () => {
    const out = render([
      `CREATE TABLE s (k String, m DateTime, n UInt64, hits UInt64, last SimpleAggregateFunction(max, DateTime), label String)
       ENGINE = SummingMergeTree((n)) ORDER BY (k, m)`,
      'ALTER TABLE s ADD COLUMN IF NOT EXISTS extra SimpleAggregateFunction(sum, UInt64) AFTER n',
      'CREATE VIEW sv AS SELECT k, n FROM s AS x FINAL WHERE n > 0',
    ]);
    expect(out.at(-1)).toBe(
      'CREATE VIEW IF NOT EXISTS sv ON CLUSTER c1 AS SELECT k, n FROM (SELECT k, m, sum(n) AS n, any(hits) AS hits, max(last) AS last, any(label) AS label, sum(extra) AS extra FROM s GROUP BY k, m) AS x WHERE n > 0',
    );
  });

  it('refuses FINAL across shards on an engine without a per-column merge', () => {
    expect(() =>
      render([
        'CREATE TABLE rp (k String, v UInt64) ENGINE = ReplacingMergeTree ORDER BY k',
        'CREATE VIEW rv AS SELECT * FROM rp FINAL',
      ]),
    ).toThrow(/View rv reads rp FINAL across shards, but ReplacingMergeTree has no per-column merge/);
  });

  it('with a database, creates it and qualifies every name; functions stay global', () => {
    const out = render(
      [
        'CREATE OR REPLACE FUNCTION faultline_x AS (a) -> a + 1',
        'CREATE MATERIALIZED VIEW IF NOT EXISTS failures_mv TO failures AS SELECT TraceId, ServiceName, Timestamp, otel_traces.SpanId AS code FROM otel_traces',
        'DROP TABLE IF EXISTS failures',
      ],
      'fl',
    );
    expect(out[0]).toBe('CREATE DATABASE IF NOT EXISTS fl ON CLUSTER c1');
    expect(out[1]).toContain('CREATE TABLE IF NOT EXISTS fl.otel_traces_local ON CLUSTER c1 (');
    expect(out[2]).toBe(
      "CREATE TABLE IF NOT EXISTS fl.otel_traces ON CLUSTER c1 AS fl.otel_traces_local ENGINE = Distributed(c1, 'fl', otel_traces_local, cityHash64(TraceId))",
    );
    expect(out.slice(-4)).toEqual([
      'CREATE OR REPLACE FUNCTION faultline_x ON CLUSTER c1 AS (a) -> a + 1',
      'CREATE MATERIALIZED VIEW IF NOT EXISTS fl.failures_mv ON CLUSTER c1 TO fl.failures_local AS SELECT TraceId, ServiceName, Timestamp, otel_traces.SpanId AS code FROM fl.otel_traces_local AS otel_traces',
      'DROP TABLE IF EXISTS fl.failures ON CLUSTER c1',
      'DROP TABLE IF EXISTS fl.failures_local ON CLUSTER c1',
    ]);
  });

  it('a table of another engine runs ON CLUSTER as it is, without a twin', () => {
    expect(render(['CREATE TABLE IF NOT EXISTS buffer_in (a UInt8) ENGINE = Null']).at(-1)).toBe(
      'CREATE TABLE IF NOT EXISTS buffer_in ON CLUSTER c1 (a UInt8) ENGINE = Null',
    );
  });

  it.each([
    ['INSERT INTO failures SELECT * FROM failures', /Only CREATE, ALTER and DROP statements/],
    ['OPTIMIZE TABLE failures FINAL', /Only CREATE, ALTER and DROP statements/],
    ['CREATE TABLE x AS failures', /has no column list/],
    [
      "CREATE TABLE y (a UInt8) ENGINE = ReplicatedMergeTree('/p', 'r') ORDER BY a",
      /already has a cluster engine/,
    ],
    ['ALTER TABLE nowhere ADD COLUMN a UInt8', /not a MergeTree table of the schema/],
    ['CREATE MATERIALIZED VIEW m ENGINE = MergeTree ORDER BY a AS SELECT 1 AS a', /has no TO table/],
    ['CREATE VIEW db.v AS SELECT 1', /without a database/],
  ])('refuses %j rather than passing it through', (statement, message) => {
    expect(() => render([statement])).toThrow(message);
  });
});
