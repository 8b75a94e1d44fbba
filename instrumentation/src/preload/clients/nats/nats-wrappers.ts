import { diag, type Span, type Tracer } from '@opentelemetry/api';
import {
  endConnected,
  failSpan,
  type NatsConnection,
  type NatsConnectOptions,
  type Operation,
  startConnectSpan,
  startSendSpan,
} from './nats-spans.js';

export type ConnectFn = (this: unknown, opts?: NatsConnectOptions, ...rest: unknown[]) => unknown;
export type SendFn = (this: NatsConnection, subject: unknown, ...rest: unknown[]) => unknown;

/**
 * `request` publishes through `this.publish` in the same tick: that publish is the request's own
 * send, already under its span, and must not count as a second call.
 */
let inRequest = false;

/**
 * Hook code runs in plain try/catch rather than safely(): these wrappers sit on every request and
 * publish, where a closure per call costs. The library's own call is never inside a catch of ours
 * that swallows: whatever it throws or rejects with reaches the application unchanged.
 */
export function wrapConnect(tracer: () => Tracer): (original: ConnectFn) => ConnectFn {
  return (original) =>
    function connect(this: unknown, opts?: NatsConnectOptions, ...rest: unknown[]) {
      let span: Span | undefined;
      try {
        span = startConnectSpan(tracer(), opts);
      } catch (err) {
        diag.warn('faultline: nats connect span failed', err);
      }
      if (span === undefined) return original.call(this, opts, ...rest);
      let result: unknown;
      try {
        result = original.call(this, opts, ...rest);
      } catch (err) {
        fail(span, err);
        throw err;
      }
      watch(span, result, true);
      return result;
    };
}

export function wrapRequest(tracer: () => Tracer): (original: SendFn) => SendFn {
  return (original) =>
    function request(this: NatsConnection, subject: unknown, ...rest: unknown[]) {
      const span = startSend(tracer, this, 'request', subject);
      if (span === undefined) return original.call(this, subject, ...rest);
      let result: unknown;
      inRequest = true;
      try {
        result = original.call(this, subject, ...rest);
      } catch (err) {
        fail(span, err);
        throw err;
      } finally {
        inRequest = false;
      }
      watch(span, result, false);
      return result;
    };
}

export function wrapPublish(tracer: () => Tracer): (original: SendFn) => SendFn {
  return (original) =>
    function publish(this: NatsConnection, subject: unknown, ...rest: unknown[]) {
      const span = inRequest ? undefined : startSend(tracer, this, 'publish', subject);
      if (span === undefined) return original.call(this, subject, ...rest);
      let result: unknown;
      try {
        result = original.call(this, subject, ...rest);
      } catch (err) {
        fail(span, err);
        throw err;
      }
      end(span);
      return result;
    };
}

function startSend(
  tracer: () => Tracer,
  nc: NatsConnection,
  operation: Operation,
  subject: unknown,
): Span | undefined {
  try {
    return startSendSpan(tracer(), nc, operation, typeof subject === 'string' ? subject : '');
  } catch (err) {
    diag.warn('faultline: nats span start failed', err);
    return undefined;
  }
}

/**
 * Ends the span when the call's promise settles, on a branch of it: the application gets nats.js's
 * own promise, and its continuations keep the context they were attached in.
 */
function watch(span: Span, result: unknown, connect: boolean): void {
  if (typeof (result as { then?: unknown } | null | undefined)?.then !== 'function') {
    end(span);
    return;
  }
  (result as PromiseLike<unknown>).then(
    (value) => {
      if (!connect) {
        end(span);
        return;
      }
      try {
        endConnected(span, value as NatsConnection | undefined);
      } catch (err) {
        diag.warn('faultline: nats connect span end failed', err);
      }
    },
    (err: unknown) => fail(span, err),
  );
}

function end(span: Span): void {
  try {
    span.end();
  } catch (err) {
    diag.warn('faultline: nats span end failed', err);
  }
}

function fail(span: Span, error: unknown): void {
  try {
    failSpan(span, error);
  } catch (err) {
    diag.warn('faultline: nats span failure failed', err);
  }
}
