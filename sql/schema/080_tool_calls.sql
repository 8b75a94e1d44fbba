-- Agents (issue 32): one row per tool call an agent made (role 'tool': an AI SDK ai.toolCall, an MCP
-- tools/call, any GenAI execute_tool span), successes included, and one per span that names the
-- model of an agent run (role 'model': the AI SDK's generateText and doGenerate spans, GenAI chat
-- and invoke_agent spans), which fills the model of a run's tool calls that do not name it (stock
-- AI SDK tool spans). Small (a few rows per agent run) and free of the attribute map, so judging
-- each failed call's next action (agent_actions, below) reads this rather than otel_traces. The
-- readings are the rules of 007; a failed call's envelope is its span's, as in failures (010).
CREATE TABLE IF NOT EXISTS tool_calls (
    Timestamp DateTime64(9) CODEC(Delta(8), ZSTD(1)),
    end_time DateTime64(9) CODEC(Delta(8), ZSTD(1)),
    ServiceName LowCardinality(String) CODEC(ZSTD(1)),
    TraceId String CODEC(ZSTD(1)),
    SpanId String CODEC(ZSTD(1)),
    ParentSpanId String CODEC(ZSTD(1)),
    role LowCardinality(String),
    tool LowCardinality(String) CODEC(ZSTD(1)),
    agent LowCardinality(String) CODEC(ZSTD(1)),
    model LowCardinality(String) CODEC(ZSTD(1)),
    -- cityHash64 of the recorded arguments (faultline_tool_args): equal for an identical repeat.
    args_hash UInt64,
    class LowCardinality(String),
    code LowCardinality(String),
    retry_after Nullable(Float64),
    weight Float64
) ENGINE = MergeTree()
PARTITION BY toDate(Timestamp)
ORDER BY (TraceId, Timestamp)
SETTINGS index_granularity = 8192, ttl_only_drop_parts = 1, non_replicated_deduplication_window = 1000;

ALTER TABLE tool_calls MODIFY SETTING non_replicated_deduplication_window = 1000;

CREATE MATERIALIZED VIEW IF NOT EXISTS tool_calls_mv TO tool_calls AS
SELECT
    Timestamp,
    fromUnixTimestamp64Nano(toUnixTimestamp64Nano(Timestamp) + toInt64(Duration)) AS end_time,
    ServiceName,
    TraceId,
    SpanId,
    ParentSpanId,
    if(faultline_is_tool_call(SpanAttributes), 'tool', 'model') AS role,
    if(role = 'tool', faultline_tool_name(SpanAttributes), '') AS tool,
    faultline_agent_name(SpanAttributes) AS agent,
    faultline_model_name(SpanAttributes) AS model,
    if(role = 'tool', cityHash64(faultline_tool_args(SpanAttributes)), 0) AS args_hash,
    SpanAttributes['faultline.class'] AS class,
    SpanAttributes['faultline.code'] AS code,
    if(isFinite(assumeNotNull(toFloat64OrNull(SpanAttributes['faultline.retry_after']))),
       toFloat64OrNull(SpanAttributes['faultline.retry_after']), NULL) AS retry_after,
    faultline_span_weight(TraceState, SpanAttributes) AS weight
FROM otel_traces
WHERE faultline_is_tool_call(SpanAttributes)
   OR SpanAttributes['ai.model.id'] != ''
   OR SpanAttributes['gen_ai.request.model'] != '';

-- Each failed tool call of [from, to) with what the agent did next in the same run (trace), judged
-- against the failure's class (007: faultline_next_action, faultline_action_verdict):
--   action        identical_repeat, changed_repeat, refresh_repeat, wait_repeat, other_tool, stop
--   verdict       right, wrong, none (the policy says nothing of that action)
--   next_tool     the tool of the next action's call ('' on stop), next_span_id its span
--   waited_s      seconds from the failure's end to that call's start; wait_covered: >= retry_after
-- The next action's call is the first tool call that started after the failure ended (within the
-- millisecond: stock OpenTelemetry JS stamps a span's start to the millisecond and its end to the
-- nanosecond, so the step right after a failure may appear to start before it ended) and is the
-- same tool or not a helper (faultline_tool_helper: refresh- and wait-like tools lead to it); a
-- refresh-like call before it makes a repeat refresh_repeat. A tool call inside another (an MCP
-- tools/call run by an AI SDK tool) is a step of the outer call, neither a failure nor an action
-- here. remedies_before counts the same tool's earlier failures of the same class in the run whose
-- action was the class's one-time remedy (faultline_action_remedy), so "repair once" and "refresh
-- once, then escalate" judge a second one as such. The run's calls are read one hour either side of
-- the range. A tool call that names no model takes the run's (its model spans').
--   SELECT class, verdict, count() FROM agent_actions(from = '2026-01-31 09:00:00', to = '2026-01-31 10:00:00') GROUP BY ALL
CREATE OR REPLACE VIEW agent_actions AS
SELECT
    Timestamp,
    ServiceName,
    TraceId,
    SpanId,
    tool,
    agent,
    model,
    class,
    code,
    retry_after,
    weight,
    action,
    next_tool,
    next_span_id,
    same_args,
    waited_s,
    wait_covered,
    remedies_before,
    faultline_action_verdict(class, action, same_args, wait_covered, remedies_before) AS verdict
FROM (
    SELECT
        *,
        sum(toUInt32(faultline_action_remedy(class, action, same_args))) OVER (
            PARTITION BY TraceId, tool, class ORDER BY Timestamp, SpanId
            ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS remedies_before
    FROM (
        -- One row per failed call f; `later`: the run's calls that started after f ended. Tuple
        -- positions: 1 start (ns), 2 end (ns), 3 SpanId, 4 ParentSpanId, 5 tool, 6 args_hash,
        -- 7 helper, 8 class, 9 code, 10 retry_after, 11 weight, 12 agent, 13 model,
        -- 14 ServiceName, 15 Timestamp.
        SELECT
            TraceId,
            f.15 AS Timestamp,
            f.14 AS ServiceName,
            f.3 AS SpanId,
            f.5 AS tool,
            if(f.12 != '', f.12, run_agent) AS agent,
            if(f.13 != '', f.13, run_model) AS model,
            f.8 AS class,
            f.9 AS code,
            f.10 AS retry_after,
            f.11 AS weight,
            arrayFilter(c -> c.1 >= f.2 - 1000000 AND c.1 > f.1 AND c.3 != f.3, calls) AS later,
            arrayFirstIndex(c -> c.5 = f.5 OR c.7 = '', later) AS next_at,
            next_at > 0 AS found,
            found AND later[next_at].5 = f.5 AS same_tool,
            found AND arrayExists(c -> c.7 = 'refresh' AND c.5 != f.5, arraySlice(later, 1, next_at - 1)) AS refreshed,
            found AND later[next_at].6 = f.6 AS same_args,
            round(if(found, greatest(later[next_at].1 - f.2, 0) / 1e9, 0), 3) AS waited_s,
            if(found, later[next_at].5, '') AS next_tool,
            if(found, later[next_at].3, '') AS next_span_id,
            faultline_next_action(length(later), found, same_tool, refreshed, same_args, waited_s, retry_after) AS action,
            faultline_wait_covered(waited_s, retry_after) AS wait_covered
        FROM (
            SELECT
                TraceId,
                run_model,
                run_agent,
                arrayFilter(c -> NOT has(tool_ids, c.4), all_calls) AS calls
            FROM (
                SELECT
                    TraceId,
                    anyIf(model, role = 'model' AND model != '') AS run_model,
                    anyIf(agent, role = 'model' AND agent != '') AS run_agent,
                    groupArrayIf(SpanId, role = 'tool') AS tool_ids,
                    arraySort(c -> c.1, groupArrayIf(
                        (toUnixTimestamp64Nano(Timestamp), toUnixTimestamp64Nano(end_time), SpanId, ParentSpanId,
                         tool, args_hash, faultline_tool_helper(tool), class, code, retry_after, weight, agent,
                         model, ServiceName, Timestamp),
                        role = 'tool')) AS all_calls
                FROM tool_calls
                WHERE Timestamp >= {from:DateTime} - INTERVAL 1 HOUR AND Timestamp < {to:DateTime} + INTERVAL 1 HOUR
                GROUP BY TraceId
                HAVING countIf(role = 'tool' AND class != '') > 0
            )
        )
        ARRAY JOIN arrayFilter(c -> c.8 != '', calls) AS f
    )
)
WHERE Timestamp >= {from:DateTime} AND Timestamp < {to:DateTime};
