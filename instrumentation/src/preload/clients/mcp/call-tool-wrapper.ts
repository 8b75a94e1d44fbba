import { context, diag, type Span, type Tracer, trace } from '@opentelemetry/api';
import {
  type CallToolParams,
  endCallToolSpan,
  failCallToolSpan,
  type McpClientLike,
  startCallToolSpan,
} from './call-tool-span.js';

export type CallToolFn = (this: McpClientLike, params: CallToolParams, ...rest: unknown[]) => unknown;

/**
 * `Client#callTool` under a span: the request runs in the span's context (a Streamable HTTP
 * transport's POST is its child), the application gets the SDK's own promise's outcome unchanged.
 */
export function wrapCallTool(tracer: () => Tracer): (original: CallToolFn) => CallToolFn {
  return (original) =>
    function callTool(this: McpClientLike, params: CallToolParams, ...rest: unknown[]) {
      let span: Span | undefined;
      try {
        span = startCallToolSpan(tracer(), this, params);
      } catch (err) {
        diag.warn('faultline: mcp callTool span failed', err);
      }
      if (span === undefined) return original.call(this, params, ...rest);
      const active = span;
      let result: unknown;
      try {
        result = context.with(trace.setSpan(context.active(), active), () =>
          original.call(this, params, ...rest),
        );
      } catch (err) {
        settle(() => failCallToolSpan(active, err));
        throw err;
      }
      if (typeof (result as { then?: unknown } | null)?.then !== 'function') {
        settle(() => endCallToolSpan(active, result));
        return result;
      }
      return (result as Promise<unknown>).then(
        (value) => {
          settle(() => endCallToolSpan(active, value));
          return value;
        },
        (err: unknown) => {
          settle(() => failCallToolSpan(active, err));
          throw err;
        },
      );
    };
}

function settle(end: () => void): void {
  try {
    end();
  } catch (err) {
    diag.warn('faultline: mcp callTool span end failed', err);
  }
}
