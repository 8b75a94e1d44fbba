-- name: agent_compliance_by_class
-- description: Did the agents follow each class's policy after a failed tool call? Per class in [{from}, {to}): the failed tool calls, how many next actions were right, wrong or not judged (agent_actions: validation repair once, authentication refresh once then escalate, rate_limit wait retry_after, transient back off and retry, permanent never repeat the identical call), compliance = right / (right + wrong), and the wrong actions seen most. Empty service or agent = all.
SELECT
    class,
    sum(weight) AS failed_calls,
    sumIf(weight, verdict = 'right') AS right_actions,
    sumIf(weight, verdict = 'wrong') AS wrong_actions,
    sumIf(weight, verdict = 'none') AS unjudged,
    if(right_actions + wrong_actions > 0, right_actions / (right_actions + wrong_actions), NULL) AS compliance,
    topKIf(3)(action, verdict = 'wrong') AS wrong_kinds
FROM agent_actions(from = {from:DateTime}, to = {to:DateTime})
WHERE ({service:String} = '' OR ServiceName = {service:String})
  AND ({agent:String} = '' OR agent = {agent:String})
GROUP BY class
ORDER BY wrong_actions DESC, class
