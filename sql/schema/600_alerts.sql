-- Alerts (#12): every transition of a burn-rate alert (fired, resolved) and every delivery attempt
-- outcome, appended. The evaluator reads the latest transition per alert at start, so a restart
-- neither re-pages an alert that already fired nor forgets to resolve one that was firing.
-- Append-only (MergeTree, never updated): the current state is argMax(state, at) per alert_key.
CREATE TABLE IF NOT EXISTS alert_events (
    at DateTime64(3) CODEC(Delta(8), ZSTD(1)),
    -- alertname|service|severity: one alert per rule and service, as Alertmanager groups them.
    alert_key String CODEC(ZSTD(1)),
    alertname LowCardinality(String),
    service LowCardinality(String),
    severity LowCardinality(String),
    -- The class burning most of the budget over the long window.
    class LowCardinality(String),
    state LowCardinality(String),
    started_at DateTime64(3),
    burn_long Float64,
    burn_short Float64,
    summary String CODEC(ZSTD(1)),
    -- The breakdown over the long window (class shares, top source and code) as JSON.
    breakdown String CODEC(ZSTD(1))
) ENGINE = MergeTree()
PARTITION BY toYYYYMM(at)
ORDER BY (alert_key, at);

-- One row per delivery outcome to a receiver (alertmanager, webhook): the Alerts page shows a
-- failing receiver from here.
CREATE TABLE IF NOT EXISTS alert_deliveries (
    at DateTime64(3) CODEC(Delta(8), ZSTD(1)),
    alert_key String CODEC(ZSTD(1)),
    receiver LowCardinality(String),
    state LowCardinality(String),
    ok Bool,
    attempts UInt16,
    status UInt16,
    error String CODEC(ZSTD(1))
) ENGINE = MergeTree()
PARTITION BY toYYYYMM(at)
ORDER BY (alert_key, at);
