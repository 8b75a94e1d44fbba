import { context, trace } from '@opentelemetry/api';
import { fileSpanError } from '../../pipeline/span-errors.js';
import { fileToolResult } from '../../pipeline/tool-results.js';

type Execute = (this: unknown, input: unknown, options: unknown) => unknown;
interface ToolLike {
  execute?: Execute;
}

const CAPTURED = Symbol.for('faultline.ai.captured');

/**
 * The tools of one AI SDK call, each `execute` wrapped so that what the tool threw or returned is
 * filed against its `ai.toolCall` span (the span active when the SDK runs it): the SDK records only
 * the error's name and message, and the result as JSON when recordOutputs allows, so the status,
 * `retryAfter` or SQLSTATE an error carries and a `{ ok: false }` result would be lost. The tool's
 * own promise is what the SDK awaits; nothing here changes what it resolves or rejects with. A call
 * outside an `ai.toolCall` span (telemetry off) files nothing.
 */
export function captureTools<T>(tools: T): T {
  if (tools === null || typeof tools !== 'object' || (tools as { [CAPTURED]?: true })[CAPTURED]) return tools;
  const out: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools as Record<string, ToolLike>)) {
    const execute = tool?.execute;
    out[name] = typeof execute === 'function' ? { ...tool, execute: captureExecute(name, execute) } : tool;
  }
  Object.defineProperty(out, CAPTURED, { value: true });
  return out as T;
}

function captureExecute(name: string, execute: Execute): Execute {
  return function execute_(this: unknown, input: unknown, options: unknown) {
    const span = toolSpan(name);
    if (span === undefined) return execute.call(this, input, options);
    let out: unknown;
    try {
      out = execute.call(this, input, options);
    } catch (err) {
      fileSpanError(span, err);
      throw err;
    }
    if (isThenable(out)) {
      return out.then(
        (value) => {
          fileToolResult(span, value);
          return value;
        },
        (err: unknown) => {
          fileSpanError(span, err);
          throw err;
        },
      );
    }
    // A streaming tool (an async iterable of outputs): its final output reaches the span as JSON.
    if (!isAsyncIterable(out)) fileToolResult(span, out);
    return out;
  };
}

/** The active span when it is the AI SDK's span of this tool's call. */
function toolSpan(name: string): object | undefined {
  const span = trace.getSpan(context.active());
  const attrs = (span as { attributes?: Record<string, unknown> } | undefined)?.attributes;
  return attrs?.['ai.toolCall.name'] === name ? span : undefined;
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return (
    v !== null &&
    (typeof v === 'object' || typeof v === 'function') &&
    typeof (v as { then?: unknown }).then === 'function'
  );
}

function isAsyncIterable(v: unknown): boolean {
  return v !== null && typeof v === 'object' && Symbol.asyncIterator in v;
}
