-- name: agent_judgements
-- description: Each failed tool call in [{from}, {to}) (at_s: its start in epoch seconds) with the agent's next action and its verdict (agent_actions), newest first, at most {limit}: the run's trace to open (request_path, the request tree), the tool, agent and model, the failure's class, code and retry_after, the action, the next tool, the seconds waited and whether they covered retry_after. Empty service, agent or verdict (right, wrong, none) = all.
SELECT
    Timestamp,
    toUnixTimestamp(Timestamp) AS at_s,
    ServiceName AS service,
    agent,
    model,
    tool,
    class,
    code,
    retry_after,
    action,
    next_tool,
    waited_s,
    wait_covered,
    verdict,
    TraceId,
    SpanId,
    concat('/request?id=', TraceId) AS request_path
FROM agent_actions(from = {from:DateTime}, to = {to:DateTime})
WHERE ({service:String} = '' OR ServiceName = {service:String})
  AND ({agent:String} = '' OR agent = {agent:String})
  AND ({verdict:String} = '' OR verdict = {verdict:String})
ORDER BY Timestamp DESC, SpanId
LIMIT {limit:UInt32}
