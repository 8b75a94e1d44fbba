import { agentRules, attributes } from '@faultline/instrumentation';
import type { TraceRow } from '@faultline/sql';

/** Parents walked up from a failure at most: an agent's spans nest a few levels deep. */
const MAX_DEPTH = 32;

/**
 * What the preload writes on a failure under an agent's tool call (faultline.tool / agent / model,
 * its agent-context.ts), for spans that arrived without it: the stock AI SDK names the model on its
 * generateText span only, and the HTTP request or query a tool makes names no tool at all. Read
 * from the failure's ancestors among the spans of the same export request (a span's ancestors end
 * after it, so they may come in a later export: then the row keeps what it says itself, and
 * agent_actions still takes the run's model from tool_calls). Only rows the collector classified.
 */
export function fillAgentContext(rows: readonly TraceRow[]): void {
  let bySpan: Map<string, TraceRow> | undefined;
  for (const row of rows) {
    const attrs = row.SpanAttributes;
    if (attrs[attributes.ATTR_CLASSIFIED_BY] !== attributes.CLASSIFIED_BY_COLLECTOR) continue;
    let tool = agentRules.toolNameOf(attrs);
    let agent = agentRules.agentNameOf(attrs);
    let model = agentRules.modelNameOf(attrs);
    if (tool !== '' && agent !== '' && model !== '') continue;
    bySpan ??= new Map(rows.map((r) => [`${r.TraceId}:${r.SpanId}`, r]));
    let parent = bySpan.get(`${row.TraceId}:${row.ParentSpanId}`);
    for (let depth = 0; parent !== undefined && depth < MAX_DEPTH; depth++) {
      const p = parent.SpanAttributes;
      if (tool === '' && agentRules.isToolCall(p)) tool = agentRules.toolNameOf(p);
      if (agent === '') agent = agentRules.agentNameOf(p);
      if (model === '') model = agentRules.modelNameOf(p);
      if (tool !== '' && agent !== '' && model !== '') break;
      parent = bySpan.get(`${parent.TraceId}:${parent.ParentSpanId}`);
    }
    if (tool !== '' && agentRules.toolNameOf(attrs) === '') attrs[attributes.ATTR_TOOL] = tool;
    if (agent !== '' && agentRules.agentNameOf(attrs) === '') attrs[attributes.ATTR_AGENT] = agent;
    if (model !== '' && agentRules.modelNameOf(attrs) === '') attrs[attributes.ATTR_MODEL] = model;
  }
}
