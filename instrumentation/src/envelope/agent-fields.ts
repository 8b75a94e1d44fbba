import { ATTR_AGENT, ATTR_MODEL, ATTR_TOOL } from './attribute-names.js';
import { storedText } from './stored-text.js';

/**
 * Which tool, agent and model a span names: the OpenTelemetry GenAI conventions first
 * (`gen_ai.tool.name`, `gen_ai.agent.name`, `gen_ai.request.model`), then the Vercel AI SDK's own
 * attributes (`ai.toolCall.name`, `ai.telemetry.functionId`, `ai.model.id`), then what the preload
 * or the collector copied from the enclosing spans (`faultline.tool`, `.agent`, `.model`). '' when
 * none says. The twins of faultline_tool_name, faultline_agent_name and faultline_model_name
 * (sql/schema/007_agent_rules.sql; parity: sql/test/counting/agent-rules-parity.test.ts).
 */
type Attrs = Readonly<Record<string, unknown>>;

function first(attrs: Attrs, a: string, b: string, c: string): string {
  return storedText(attrs[a]) || storedText(attrs[b]) || storedText(attrs[c]);
}

export function toolNameOf(attrs: Attrs): string {
  return first(attrs, 'gen_ai.tool.name', 'ai.toolCall.name', ATTR_TOOL);
}

export function agentNameOf(attrs: Attrs): string {
  return first(attrs, 'gen_ai.agent.name', 'ai.telemetry.functionId', ATTR_AGENT);
}

export function modelNameOf(attrs: Attrs): string {
  return first(attrs, 'gen_ai.request.model', 'ai.model.id', ATTR_MODEL);
}

/**
 * A span that is one tool call of an agent: GenAI `execute_tool` (an MCP client's `tools/call`
 * span carries it too) or the AI SDK's `ai.toolCall`. A span below a tool call (its HTTP request)
 * carries `faultline.tool` but is not one. The twin of faultline_is_tool_call.
 */
export function isToolCall(attrs: Attrs): boolean {
  return (
    storedText(attrs['gen_ai.operation.name']) === 'execute_tool' ||
    storedText(attrs['ai.toolCall.name']) !== ''
  );
}

/** The arguments a tool call was made with, as recorded (JSON text); '' when not recorded. */
export function toolArgsOf(attrs: Attrs): string {
  return storedText(attrs['ai.toolCall.args']) || storedText(attrs['gen_ai.tool.call.arguments']);
}

/** What a tool call returned, as recorded (JSON text); '' when not recorded. */
export function toolResultOf(attrs: Attrs): string {
  return storedText(attrs['ai.toolCall.result']) || storedText(attrs['gen_ai.tool.call.result']);
}
