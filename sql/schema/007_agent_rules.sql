-- Agents' tool calls (issue 32): which tool, agent and model a span names, and how the action an
-- agent took after a failed tool call is judged against the failure's class. Each rule is defined
-- once here, with a TypeScript twin in @faultline/instrumentation (`agentRules`: the preload, the
-- collector and the in-loop guards apply them) and a parity test (sql/test/counting/
-- agent-rules-parity.test.ts). Read by failures (010), tool_calls and agent_actions (080).

-- The GenAI semantic conventions first, then the Vercel AI SDK's attributes, then what the preload
-- or the collector copied from the enclosing spans (faultline.tool / agent / model: the AI SDK puts
-- the model on its generateText span, not on the tool call, nor on the HTTP request a tool makes).
CREATE OR REPLACE FUNCTION faultline_tool_name AS (attrs) -> multiIf(
    attrs['gen_ai.tool.name'] != '', attrs['gen_ai.tool.name'],
    attrs['ai.toolCall.name'] != '', attrs['ai.toolCall.name'],
    attrs['faultline.tool']);

CREATE OR REPLACE FUNCTION faultline_agent_name AS (attrs) -> multiIf(
    attrs['gen_ai.agent.name'] != '', attrs['gen_ai.agent.name'],
    attrs['ai.telemetry.functionId'] != '', attrs['ai.telemetry.functionId'],
    attrs['faultline.agent']);

CREATE OR REPLACE FUNCTION faultline_model_name AS (attrs) -> multiIf(
    attrs['gen_ai.request.model'] != '', attrs['gen_ai.request.model'],
    attrs['ai.model.id'] != '', attrs['ai.model.id'],
    attrs['faultline.model']);

-- A span that is one tool call (faultline_is_tool_call) is defined in 005: faultline_source reads it.

-- The arguments as recorded (JSON text), '' when not recorded: what tells an identical repeat
-- from a repaired one.
CREATE OR REPLACE FUNCTION faultline_tool_args AS (attrs) ->
    if(attrs['ai.toolCall.args'] != '', attrs['ai.toolCall.args'], attrs['gen_ai.tool.call.arguments']);

-- Helper tools: a refresh-like tool renews a credential, a wait-like one waits; both are steps
-- towards a repeat, not another plan. Case-insensitive; `auth` not followed by `o` (author), `token`
-- not followed by `i` (tokenize).
CREATE OR REPLACE FUNCTION faultline_tool_helper AS (tool) -> multiIf(
    match(tool, '(?i)refresh|login|logon|sign_?in|token([^i]|$)|auth([^o]|$)'), 'refresh',
    match(tool, '(?i)wait|sleep|delay|backoff|pause'), 'wait',
    '');

-- The next action after a failed tool call, from the calls that followed it in the run: how many
-- started after it ended (later), whether one of them is the same tool or no helper (found: the
-- next action's call), that call's tool, a refresh before it, its arguments, the seconds between
-- the failure's end and its start, and the failure's retry_after.
CREATE OR REPLACE FUNCTION faultline_next_action AS
    (later, found, same_tool, refreshed, same_args, waited_s, retry_after) -> multiIf(
    later = 0, 'stop',
    NOT found OR NOT same_tool, 'other_tool',
    refreshed, 'refresh_repeat',
    NOT same_args, 'changed_repeat',
    ifNull(retry_after, 0) > 0 AND waited_s >= ifNull(retry_after, 0), 'wait_repeat',
    'identical_repeat');

-- Whether the time before the next call covered retry_after (true when the failure gave none).
CREATE OR REPLACE FUNCTION faultline_wait_covered AS (waited_s, retry_after) ->
    isNull(retry_after) OR waited_s >= ifNull(retry_after, 0);

-- The class's one-time remedy: a repair (validation: a repeat with other arguments) or a refresh
-- (authentication). Counted per run, tool and class, so a second one is judged as such.
CREATE OR REPLACE FUNCTION faultline_action_remedy AS (class, action, same_args) ->
    (class = 'validation' AND action NOT IN ('other_tool', 'stop') AND NOT same_args)
    OR (class = 'authentication' AND action = 'refresh_repeat');

-- The verdict: 'right' (the class's policy followed), 'wrong', or 'none' (the policy says nothing
-- of it). validation: repair once; authentication: refresh once, then escalate; rate_limit: wait
-- retry_after, then retry; transient: back off and retry (not retrying is wrong); permanent: never
-- repeat the identical call. The TypeScript twin, nextActionVerdict, explains each case.
CREATE OR REPLACE FUNCTION faultline_action_verdict AS (class, action, same_args, covered, remedies_before) -> multiIf(
    class = 'validation',
        if(action IN ('other_tool', 'stop'), 'none', if(NOT same_args AND remedies_before = 0, 'right', 'wrong')),
    class = 'authentication', multiIf(
        action = 'refresh_repeat', if(remedies_before = 0, 'right', 'wrong'),
        action NOT IN ('other_tool', 'stop'), 'wrong',
        action = 'stop' AND remedies_before > 0, 'right',
        'none'),
    class = 'rate_limit',
        if(action IN ('other_tool', 'stop'), 'none', if(covered, 'right', 'wrong')),
    class = 'transient',
        if(action IN ('other_tool', 'stop'), 'wrong', if(covered, 'right', 'wrong')),
    class = 'permanent',
        if(action IN ('other_tool', 'stop'), 'right', if(same_args, 'wrong', 'right')),
    'none');
