import type { Attributes, Span } from '@opentelemetry/api';
import { agentNameOf, isToolCall, modelNameOf, toolNameOf } from '../../envelope/agent-fields.js';
import { ATTR_AGENT, ATTR_MODEL, ATTR_TOOL } from '../../envelope/attribute-names.js';

/**
 * The tool call, agent and model a span runs under, kept on the span under a symbol (as
 * span-marks.ts keeps its marks) and handed down to its local children at start: the AI SDK names
 * the model on its generateText span and the agent (functionId) on each of its spans, but neither
 * on the HTTP request or query a tool makes, nor the model on the tool call itself.
 */
const AGENT_CONTEXT = Symbol('faultline.agentContext');

interface AgentContext {
  tool: string;
  agent: string;
  model: string;
  /** The span id of the tool call the span is, or runs under; '' outside one. */
  call: string;
}
interface Marked {
  [AGENT_CONTEXT]?: AgentContext;
}

/**
 * At start: the parent's context with what the span's own attributes add. Only spans of an agent
 * library (GenAI `gen_ai.operation.name`, the AI SDK's `ai.operationId`) are read for their own;
 * other spans cost one symbol read.
 */
export function markAgentContext(span: object, parent: object | undefined, attrs: Attributes): void {
  const inherited = parent === undefined ? undefined : (parent as Marked)[AGENT_CONTEXT];
  const own = attrs['gen_ai.operation.name'] !== undefined || attrs['ai.operationId'] !== undefined;
  if (!own) {
    if (inherited !== undefined) (span as Marked)[AGENT_CONTEXT] = inherited;
    return;
  }
  const toolCall = isToolCall(attrs);
  (span as Marked)[AGENT_CONTEXT] = {
    tool: (toolCall ? toolNameOf(attrs) : '') || (inherited?.tool ?? ''),
    agent: agentNameOf(attrs) || (inherited?.agent ?? ''),
    model: modelNameOf(attrs) || (inherited?.model ?? ''),
    call: toolCall ? spanIdOf(span) : (inherited?.call ?? ''),
  };
}

/**
 * An operation key (misrouted-retry.ts) scoped to the agent's tool call the span runs under, or is:
 * each tool call is the model's own decision, judged as such (agent_actions), so the same request
 * made by the next tool call (a repaired body to the same URL, a replay after a refresh-like tool)
 * is neither a retry of this one's nor a misrouted retry. Repeats inside one tool call (the tool's
 * own retry loop) still are. `span` is the call's span, or at a request's start the active one.
 */
export function scopedKey(key: string | undefined, span: object | undefined): string | undefined {
  if (key === undefined || span === undefined) return key;
  const call = (span as Marked)[AGENT_CONTEXT]?.call ?? '';
  return call === '' ? key : `${call} ${key}`;
}

function spanIdOf(span: object): string {
  return (span as { spanContext?: () => { spanId: string } }).spanContext?.().spanId ?? '';
}

/**
 * At the end of a tool call, and of a failure under one: the tool, agent and model the span's own
 * attributes do not name, as faultline.tool / agent / model, so its failure row says which tool
 * of which agent on which model failed (and a tool call's row its agent and model).
 */
export function writeAgentContext(span: Span, attrs: Attributes): void {
  const context = (span as unknown as Marked)[AGENT_CONTEXT];
  if (context === undefined) return;
  if (context.tool !== '' && toolNameOf(attrs) === '') span.setAttribute(ATTR_TOOL, context.tool);
  if (context.agent !== '' && agentNameOf(attrs) === '') span.setAttribute(ATTR_AGENT, context.agent);
  if (context.model !== '' && modelNameOf(attrs) === '') span.setAttribute(ATTR_MODEL, context.model);
}
