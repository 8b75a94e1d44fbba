-- name: agent_tools_by_class
-- description: Agents' tools by class of failure in [{from}, {to}): per tool and class the failed tool calls (agent_actions: a tool call inside another is the outer one's step) and the first-hand failures that happened in the tool (first_hand_failures naming the tool: its own, or the HTTP request or query inside it that the tool's failure echoes), with their share of all first-hand failures of the range (the budget the tool consumed). Empty service = all.
SELECT
    tool,
    class,
    sum(tool_calls) AS failed_tool_calls,
    sum(first_hand) AS first_hand_failures,
    first_hand_failures / greatest((
        SELECT sum(weight)
        FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
        WHERE ({service:String} = '' OR ServiceName = {service:String})), 1e-9) AS budget_share
FROM (
    SELECT tool, class, sum(weight) AS tool_calls, 0 AS first_hand
    FROM agent_actions(from = {from:DateTime}, to = {to:DateTime})
    WHERE ({service:String} = '' OR ServiceName = {service:String})
    GROUP BY tool, class
    UNION ALL
    SELECT tool, class, 0 AS tool_calls, sum(weight) AS first_hand
    FROM first_hand_failures(from = {from:DateTime}, to = {to:DateTime})
    WHERE tool != '' AND ({service:String} = '' OR ServiceName = {service:String})
    GROUP BY tool, class
)
GROUP BY tool, class
ORDER BY first_hand_failures DESC, failed_tool_calls DESC, tool, class
