import { type Attributes, type Span, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { redactText } from '../../../redact/index.js';
import { stableJson } from '../../../tool/stable-json.js';
import { fileSpanError } from '../../pipeline/span-errors.js';
import { fileToolResult } from '../../pipeline/tool-results.js';

/** Longest `gen_ai.tool.call.arguments` kept: enough to tell two calls apart, bounded per span. */
const MAX_ARGUMENTS_CHARS = 2048;

export interface CallToolParams {
  name?: unknown;
  arguments?: unknown;
}
export interface McpClientLike {
  transport?: { sessionId?: unknown };
}

/**
 * A `tools/call` span as the GenAI conventions for MCP describe the client side: kind CLIENT,
 * named `tools/call {tool}`, `mcp.method.name`, `gen_ai.operation.name = execute_tool`,
 * `gen_ai.tool.name`, `mcp.session.id` when the transport has one. The arguments, redacted and
 * bounded, as `gen_ai.tool.call.arguments`: what tells an identical repeat from a repaired one
 * (agent_actions, sql/schema/070).
 */
export function startCallToolSpan(tracer: Tracer, client: McpClientLike, params: CallToolParams): Span {
  const tool = typeof params?.name === 'string' ? params.name : '';
  const attributes: Attributes = {
    'mcp.method.name': 'tools/call',
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': tool,
  };
  const args = stableJson(params?.arguments ?? {});
  if (args !== '') attributes['gen_ai.tool.call.arguments'] = redactText(args.slice(0, MAX_ARGUMENTS_CHARS));
  const session = client?.transport?.sessionId;
  if (typeof session === 'string' && session !== '') attributes['mcp.session.id'] = session;
  return tracer.startSpan(tool === '' ? 'tools/call' : `tools/call ${tool}`, {
    kind: SpanKind.CLIENT,
    attributes,
  });
}

/**
 * The result: one with `isError: true` is a failure the server reported as data, filed for the span
 * processor to classify from its content, and marked as the conventions say (`error.type =
 * tool_error`, status ERROR).
 */
export function endCallToolSpan(span: Span, result: unknown): void {
  if ((result as { isError?: unknown } | null)?.isError === true) {
    fileToolResult(span, result);
    span.setAttribute('error.type', 'tool_error');
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** A rejection (a JSON-RPC error, a transport failure, a timeout): the error itself, for the processor. */
export function failCallToolSpan(span: Span, err: unknown): void {
  fileSpanError(span, err);
  const error = err instanceof Error ? err : new Error(String(err));
  span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  const code = (err as { code?: unknown } | null)?.code;
  span.setAttribute(
    'error.type',
    typeof code === 'number' || (typeof code === 'string' && code !== '') ? String(code) : error.name,
  );
  span.end();
}
