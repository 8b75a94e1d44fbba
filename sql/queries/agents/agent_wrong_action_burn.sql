-- name: agent_wrong_action_burn
-- description: Burn rate of agents' wrong next actions, for a multi-window alert: per service and agent, over the long window [{from}, {to}) and its last {short_s} seconds, wrong / judged next actions after failed tool calls (agent_actions) divided by the share the objective allows, 1 - {target} (e.g. 0.9: one judged action in ten may be wrong). Burn 1 spends the allowance exactly; as with the budget alerts, page when both windows burn over the rule's factor. Empty service = all.
SELECT
    ServiceName AS service,
    agent,
    sumIf(weight, verdict != 'none') AS judged_long,
    sumIf(weight, verdict = 'wrong') AS wrong_long,
    sumIf(weight, verdict != 'none' AND Timestamp >= {to:DateTime} - toIntervalSecond({short_s:UInt32})) AS judged_short,
    sumIf(weight, verdict = 'wrong' AND Timestamp >= {to:DateTime} - toIntervalSecond({short_s:UInt32})) AS wrong_short,
    if(judged_long > 0, wrong_long / judged_long / greatest(1 - {target:Float64}, 1e-9), 0) AS burn_long,
    if(judged_short > 0, wrong_short / judged_short / greatest(1 - {target:Float64}, 1e-9), 0) AS burn_short
FROM agent_actions(from = {from:DateTime}, to = {to:DateTime})
WHERE ({service:String} = '' OR ServiceName = {service:String})
GROUP BY service, agent
ORDER BY burn_short DESC, burn_long DESC, service, agent
