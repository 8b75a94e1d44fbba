import { type Span, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { envelopeOfToolResult } from '../../span-fields/tool-result-of-span.js';
import { classifyToolError } from '../../tool/classify-tool-error.js';
import { classifyToolResult } from '../../tool/classify-tool-result.js';
import type { Envelope } from '../../types.js';
import { correlationIdOfSpan } from './correlation.js';
import { envelopeFromSpan } from './fallback-envelope.js';
import { takeSpanError } from './span-errors.js';
import { takeToolResult } from './tool-results.js';

/**
 * The envelope of an agent's tool call (an AI SDK `ai.toolCall`, an MCP `tools/call`, any GenAI
 * `execute_tool` span), null when it did not fail. What the tool threw (the hooks file the error
 * object itself; the AI SDK's own recordException only a name and a message) by classifyToolError;
 * else what it returned, when that reports a failure (classifyToolResult), from the hooks or the
 * span's recorded result; else, failed by its status alone, the span's own fields.
 */
export function toolCallEnvelope(span: Span, sdkSpan: ReadableSpan): Envelope | null {
  const correlationId = correlationIdOfSpan(span);
  const thrown = takeSpanError(span);
  if (thrown !== undefined) return classifyToolError(thrown, { correlationId });
  const returned = takeToolResult(span);
  const fromResult =
    returned !== undefined
      ? classifyToolResult(returned, { correlationId })
      : envelopeOfToolResult(sdkSpan.attributes, correlationId);
  if (fromResult !== null) return fromResult;
  if (sdkSpan.status.code !== SpanStatusCode.ERROR) return null;
  return envelopeFromSpan(sdkSpan, { source: undefined, correlationId });
}
