import { isObjectLike, read } from '../error/safe-read.js';
import { classifyHttpResponse } from '../http/classify-http-response.js';
import type { ClassifyContext, Envelope } from '../types.js';
import { classifyToolError } from './classify-tool-error.js';
import { modelEnvelopeOf } from './model-envelope-of.js';
import { asToolFailure } from './tool-source.js';

/** The status a failure report that states none is read under: a 200 body that says it failed. */
const NO_STATUS = 200;
/** The name a report's text is classified under: its code when the text states none. */
const TOOL_ERROR = 'tool_error';

/**
 * The envelope of a tool result that reports a failure, null for any other result. Most tools
 * report failure as data rather than by throwing:
 *  - an MCP `CallToolResult` with `isError: true`: its `structuredContent`, else its first text
 *    part, parsed as JSON when it is, else read as text (classifyToolError's reading of a message);
 *  - `{ ok: false, error }`, `{ error: … }`, `{ errors: [...] }` and vendor error bodies;
 *  - an RFC 9457 problem body (`type`, `title`, `status`, `detail`), under the status it states;
 *  - an Error object returned instead of thrown;
 *  - a Faultline model envelope (what the guards hand the model), taken as it is.
 * Bodies are read by classifyHttpResponse's body rules (one home for vendor codes, problem bodies,
 * `retry_after`, JSON-RPC codes), under the status they state or, reporting none, as a 200 body;
 * a report with no code of its own is `tool_error`, and one whose text names a status, a SQLSTATE
 * or a wait is classified by that text. Pure; never throws.
 */
export function classifyToolResult(result: unknown, ctx?: ClassifyContext): Envelope | null {
  try {
    if (result instanceof Error) return classifyToolError(result, ctx);
    if (!isObjectLike(result)) return null;
    if (read(result, 'isError') === true) return mcpToolError(result, ctx);
    return modelEnvelopeOf(result, ctx?.correlationId) ?? fromBody(result, ctx);
  } catch {
    return null;
  }
}

function mcpToolError(result: object, ctx: ClassifyContext | undefined): Envelope {
  const structured = read(result, 'structuredContent');
  const text = firstText(read(result, 'content'));
  const body = isObjectLike(structured) ? structured : parseObject(text);
  const fromContent =
    body === undefined ? null : (modelEnvelopeOf(body, ctx?.correlationId) ?? fromBody(body, ctx));
  if (fromContent !== null) return fromContent;
  return classifyToolError({ name: TOOL_ERROR, message: text ?? 'the tool reported an error' }, ctx);
}

/** A body that reports a failure, under the status it states (a problem body's), else as a 200. */
function fromBody(body: object, ctx: ClassifyContext | undefined): Envelope | null {
  const stated = read(body, 'status');
  const status = typeof stated === 'number' && stated >= 400 && stated <= 599 ? stated : NO_STATUS;
  const env = classifyHttpResponse(
    { status, body },
    { source: status === NO_STATUS ? 'tool' : 'http', correlationId: ctx?.correlationId },
  );
  if (env === null) return null;
  if (status === NO_STATUS && env.code === String(NO_STATUS)) {
    // The report said only words: a status, a SQLSTATE or a wait they state says more.
    const byText = classifyToolError({ name: TOOL_ERROR, message: env.message }, ctx);
    if (byText.code !== TOOL_ERROR) return byText;
  }
  return asToolFailure(env, NO_STATUS);
}

function firstText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  for (const part of content.slice(0, 20)) {
    const text = read(part, 'text');
    if (read(part, 'type') === 'text' && typeof text === 'string') return text;
  }
  return undefined;
}

function parseObject(text: string | undefined): object | undefined {
  const t = text?.trim();
  if (t === undefined || (t[0] !== '{' && t[0] !== '[')) return undefined;
  try {
    const v: unknown = JSON.parse(t);
    return isObjectLike(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
