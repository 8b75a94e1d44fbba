-- Alert silences (issue 31): an engineer mutes the alerts of a service, a class or an alert name for
-- a while, with an author and a reason. Append-only like 600 (MergeTree, never updated): every
-- change (created, mirrored to Alertmanager, expired early) appends the silence whole with the next
-- revision, and the current silence is its row of the highest revision (alerts/alert_silences).
-- A firing alert a silence matches is not sent to the webhook: alert_deliveries (600) gets a row
-- with state 'silenced' instead, and the alert is delivered once no silence matches it any more.
CREATE TABLE IF NOT EXISTS alert_silences (
    at DateTime64(3) CODEC(Delta(8), ZSTD(1)),
    silence_id String CODEC(ZSTD(1)),
    revision UInt32,
    -- Equality matchers on the alert's labels; '' matches any value, and at least one is set.
    service LowCardinality(String),
    class LowCardinality(String),
    alertname LowCardinality(String),
    starts_at DateTime64(3),
    -- An early expiry moves ends_at to the moment it was expired.
    ends_at DateTime64(3),
    created_at DateTime64(3),
    author String CODEC(ZSTD(1)),
    reason String CODEC(ZSTD(1)),
    -- 'active' (in force between starts_at and ends_at) or 'expired' (ended early, by expired_by).
    state LowCardinality(String),
    expired_by String CODEC(ZSTD(1)),
    -- The silence Alertmanager holds for it ('' while none: no Alertmanager, or not yet reached),
    -- its state there ('' not mirrored, 'active', 'expired': an early expiry reached it too), and
    -- why the last attempt to mirror or expire it failed. The evaluator retries until it is in step.
    alertmanager_id String CODEC(ZSTD(1)),
    alertmanager_state LowCardinality(String),
    mirror_error String CODEC(ZSTD(1))
) ENGINE = MergeTree()
PARTITION BY toYYYYMM(at)
ORDER BY (silence_id, revision);
