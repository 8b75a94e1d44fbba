-- What the migrator applied, one row per step and checksum: the schema's version is the highest
-- schema step recorded. A step is a numbered file of sql/schema (quick, idempotent DDL) or a
-- backfill (kind 'backfill', heavy, run as a step of its own); an edited file applies again under
-- its new checksum. A collector refuses a database whose version is newer than it knows.
CREATE TABLE IF NOT EXISTS schema_migrations (
    version UInt32,
    name LowCardinality(String),
    kind LowCardinality(String),
    checksum String,
    -- 'applied', or for a backfill 'started' (with its cutoff in detail) before 'applied'.
    state LowCardinality(String),
    detail String,
    applied_at DateTime64(3),
    duration_ms UInt64,
    applied_by String
) ENGINE = MergeTree()
ORDER BY (kind, version, name, applied_at);
