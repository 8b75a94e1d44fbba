import { errorMonitor } from 'node:events';
import { diag, type Span, SpanStatusCode } from '@opentelemetry/api';
import { fileSpanError } from '../../pipeline/span-errors.js';
import { activeRpcSpan, isCapture, markCapture, SERVER } from './grpc-wrappers.js';

type AnyFn = (this: unknown, ...args: unknown[]) => unknown;
type HandlerSet = { func?: unknown };
type ServerCall = {
  prependListener?: AnyFn;
  once?: AnyFn;
  getDeadline?: () => unknown;
};

const STATUS_UNKNOWN = 2;
const STATUS_CANCELLED = 1;
const STATUS_DEADLINE_EXCEEDED = 4;
/**
 * The client resets the stream the same way for cancel() and for its deadline. The deadline
 * travels as a relative grpc-timeout, so the server's copy runs out up to one network hop after
 * the client's: a reset this close to it is the deadline.
 */
const DEADLINE_SLACK_MS = 250;

/**
 * Server.prototype.register, wrapped *under* instrumentation-grpc's own wrapper of it: ours wraps
 * the handler first, so the handler the instrumentation traces is ours and runs with its SERVER
 * span active.
 */
export function captureRegister(original: AnyFn): AnyFn {
  const register = function (this: unknown, ...args: unknown[]): unknown {
    const result = original.apply(this, args);
    try {
      const [name, , , , type] = args;
      const handlers = (this as { handlers?: Map<unknown, HandlerSet> }).handlers;
      const set = handlers?.get(name);
      if (set && typeof set.func === 'function' && !isCapture(set.func))
        set.func = captureHandler(set.func as AnyFn, String(name), String(type));
    } catch (err) {
      diag.warn('faultline: grpc server capture failed', err);
    }
    return result;
  };
  return markCapture(register);
}

function captureHandler(handler: AnyFn, path: string, type: string): AnyFn {
  const streamingResponse = type === 'serverStream' || type === 'server_stream' || type === 'bidi';
  return markCapture(function (this: unknown, call: unknown, callback?: unknown): unknown {
    const span = activeRpcSpan(SERVER, path);
    if (span === undefined) return handler.call(this, call, callback);
    if (streamingResponse) {
      watchStream(span, call as ServerCall);
      return handler.call(this, call);
    }
    if (typeof callback !== 'function') return handler.call(this, call, callback);
    return handler.call(this, call, function (this: unknown, err: unknown, ...rest: unknown[]) {
      if (err) recordFailure(span, err);
      return (callback as AnyFn).call(this, err, ...rest);
    });
  });
}

/**
 * The instrumentation listens on errorMonitor before it calls the handler, so ours is prepended
 * to see the error first. It never listens for 'cancelled': a stream the client cancelled (or
 * whose deadline passed) would leave its SERVER span open for ever, so it is ended here.
 */
function watchStream(span: Span, call: ServerCall): void {
  try {
    call.prependListener?.call(call, errorMonitor, (err: unknown) => recordFailure(span, err));
    call.once?.call(call, 'cancelled', () => endCancelled(span, call));
  } catch (err) {
    diag.warn('faultline: grpc server stream capture failed', err);
  }
}

/**
 * grpc-js sends a handler's error without a numeric code as UNKNOWN (serverErrorToStatus,
 * src/server-call.ts); the instrumentation then sets no status at all, which would hide the
 * failure from classification.
 */
function recordFailure(span: Span, err: unknown): void {
  fileSpanError(span, err);
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'number' && Number.isInteger(code) && code > 0) return;
  span.setAttribute('rpc.grpc.status_code', STATUS_UNKNOWN);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

function endCancelled(span: Span, call: ServerCall): void {
  try {
    if (!span.isRecording()) return;
    const deadline = Number(call.getDeadline?.());
    const expired = Number.isFinite(deadline) && Date.now() >= deadline - DEADLINE_SLACK_MS;
    const code = expired ? STATUS_DEADLINE_EXCEEDED : STATUS_CANCELLED;
    // The texts grpc-js itself uses for these two (server-interceptors.ts, client.ts).
    const details = expired ? 'Deadline exceeded' : 'Cancelled on client';
    fileSpanError(span, { code, details });
    span.setAttribute('rpc.grpc.status_code', code);
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  } catch (err) {
    diag.warn('faultline: grpc cancelled stream failed', err);
  }
}
