import { isToolCall, toolResultOf } from '../envelope/agent-fields.js';
import { classifyToolResult } from '../tool/classify-tool-result.js';
import type { Envelope } from '../types.js';

/**
 * Keys a recorded result holds when it reports a failure (classifyToolResult's shapes); a result
 * holding none is not parsed. Checked on the JSON text, quoted, so a value that merely contains the
 * word does not count.
 */
const FAILURE_KEYS = ['"isError"', '"ok"', '"success"', '"error"', '"errors"', '"status"', '"code"'];

/**
 * The envelope of a tool call span that did not fail by its status yet recorded a result reporting
 * a failure (`ai.toolCall.result`, `gen_ai.tool.call.result`): an MCP `isError`, `{ ok: false }`,
 * a problem body. For the collector's stock spans and the preload's tool spans alike; null for any
 * other span or result. Values arrive stringified, as the collector stores them.
 */
export function envelopeOfToolResult(
  attrs: Readonly<Record<string, unknown>>,
  correlationId: string,
): Envelope | null {
  if (!isToolCall(attrs)) return null;
  const text = toolResultOf(attrs);
  if (text.length < 2 || (text[0] !== '{' && text[0] !== '[')) return null;
  if (!FAILURE_KEYS.some((k) => text.includes(k))) return null;
  let result: unknown;
  try {
    result = JSON.parse(text);
  } catch {
    return null;
  }
  return classifyToolResult(result, { correlationId });
}
