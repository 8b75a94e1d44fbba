import { type Exception, type Span, SpanStatusCode } from '@opentelemetry/api';
import type { InstrumentationNodeModuleDefinition } from '@opentelemetry/instrumentation';
import {
  IORedisInstrumentation,
  type IORedisInstrumentationConfig,
  type IORedisRequestHookInformation,
} from '@opentelemetry/instrumentation-ioredis';
import { fileSpanError } from '../../pipeline/span-errors.js';
import { safely } from '../../shared/safe.js';
import { commonJsValue, installUnderPatches } from '../../shared/under-patch.js';

/**
 * instrumentation-ioredis keeps only the name and message of a failed command's error in the
 * exception event; the ReplyError's `command` and the error object itself are dropped. It ends the
 * span synchronously inside the `command.reject` it installs after the driver's `sendCommand`
 * returns (instrumentation.js `_traceSendCommand` → utils.js `endSpan`), so everything the driver
 * offers runs too late for `onEnding`: a reject wrapper or a rejection handler set up *under* the
 * patch, and ioredis 6's own `ioredis:command` tracing channel, all fire after the span ended.
 * The one call that sees the error before `span.end()` is the instrumentation's
 * `span.recordException(err)`: the request hook wraps it on each command span and files the error.
 *
 * instrumentation-ioredis also never ends the span of a command the driver settles inside
 * `sendCommand` (a client whose connection has ended: "Connection is closed.", subscriber mode,
 * `enableOfflineQueue: false`), because its reject wrapper is installed after that. A thin wrapper
 * *under* its patch sees such an early outcome and ends the span the way `endSpan` would.
 */
/** The span whose command the instrumentation is about to hand to the wrapper (same tick). */
let pending: Span | undefined;
const WRAPPED = Symbol.for('faultline.ioredis-send-command');
const COMPOSED = Symbol.for('faultline.ioredis-request-hook');

type RequestHook = NonNullable<IORedisInstrumentationConfig['requestHook']> & { [COMPOSED]?: true };
type Settle = (this: unknown, ...args: unknown[]) => unknown;
type SendCommand = ((this: unknown, command: unknown, ...rest: unknown[]) => unknown) & {
  [WRAPPED]?: true;
  __original?: { [WRAPPED]?: true };
};
interface Command {
  resolve: Settle;
  reject: Settle;
}
interface RedisClass {
  prototype?: { sendCommand?: SendCommand };
}
interface Outcome {
  rejected: boolean;
  error?: unknown;
}

export class IORedisErrorInstrumentation extends IORedisInstrumentation {
  // The base constructor calls setConfig too, and the SDK may call it again later: the filing
  // hook must survive either.
  override setConfig(config: IORedisInstrumentationConfig = {}): void {
    super.setConfig({ ...config, requestHook: composeRequestHook(config.requestHook) });
  }

  override init(): InstrumentationNodeModuleDefinition[] {
    return installUnderPatches(super.init(), 'ioredis', (exports) => wrapSendCommand(redisOf(exports)));
  }
}

function composeRequestHook(user: RequestHook | undefined): RequestHook {
  if (user?.[COMPOSED]) return user;
  const hook: RequestHook = (span: Span, info: IORedisRequestHookInformation) => {
    // The user's hook first: a command it sent itself must not take this command's span.
    try {
      user?.(span, info);
    } finally {
      pending = span.isRecording() ? span : undefined;
      if (pending) safely('ioredis error filing', () => fileRecordedErrors(span));
    }
  };
  hook[COMPOSED] = true;
  return hook;
}

function fileRecordedErrors(span: Span): void {
  const record = span.recordException;
  span.recordException = function recordException(this: Span, exception: Exception, time) {
    fileSpanError(span, exception);
    return record.call(this, exception, time);
  };
}

/** `ioredis` exports the Redis class; an ESM namespace holds it behind `default`. */
function redisOf(exports: unknown): RedisClass | undefined {
  const value = commonJsValue(exports);
  return typeof value === 'function' ? (value as RedisClass) : undefined;
}

function wrapSendCommand(redis: RedisClass | undefined): void {
  const proto = redis?.prototype;
  const original = proto?.sendCommand;
  if (!proto || typeof original !== 'function' || original[WRAPPED]) return;
  // Patched again after an unpatch: the instrumentation's wrapper already sits on ours.
  if (original.__original?.[WRAPPED]) return;
  const sendCommand: SendCommand = function sendCommand(this: unknown, command: unknown, ...rest: unknown[]) {
    const span = pending;
    pending = undefined;
    if (!span || !isCommand(command)) return original.call(this, command, ...rest);
    const watch = safely('ioredis early outcome watch', () => watchOutcome(command));
    try {
      return original.call(this, command, ...rest);
    } finally {
      if (watch) safely('ioredis early outcome', () => endIfSettled(span, watch()));
    }
  };
  sendCommand[WRAPPED] = true;
  proto.sendCommand = sendCommand;
}

function isCommand(value: unknown): value is Command {
  const command = value as Partial<Command> | null;
  return (
    typeof command === 'object' &&
    command !== null &&
    typeof command.reject === 'function' &&
    typeof command.resolve === 'function'
  );
}

/**
 * Notes how the driver settles the command while `sendCommand` runs; the returned function puts
 * the driver's own resolve/reject back (so the instrumentation wraps those, not ours) and tells
 * what happened meanwhile.
 */
function watchOutcome(command: Command): () => Outcome | undefined {
  const { resolve, reject } = command;
  let outcome: Outcome | undefined;
  const watchedReject: Settle = function reject_(this: unknown, ...args: unknown[]) {
    outcome ??= { rejected: true, error: args[0] };
    return reject.apply(this, args);
  };
  const watchedResolve: Settle = function resolve_(this: unknown, ...args: unknown[]) {
    const result = resolve.apply(this, args);
    // ioredis's resolve rejects instead when transforming the reply throws: that came first.
    outcome ??= { rejected: false };
    return result;
  };
  command.reject = watchedReject;
  command.resolve = watchedResolve;
  return () => {
    if (command.reject === watchedReject) command.reject = reject;
    if (command.resolve === watchedResolve) command.resolve = resolve;
    return outcome;
  };
}

/** Ends the span as instrumentation-ioredis's `endSpan` (build/src/utils.js) would have. */
function endIfSettled(span: Span, outcome: Outcome | undefined): void {
  if (outcome === undefined || !span.isRecording()) return;
  const { rejected, error } = outcome;
  if (rejected) {
    if (error) span.recordException(error as Exception);
    const message = (error as { message?: unknown } | undefined)?.message;
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: typeof message === 'string' ? message : undefined,
    });
  }
  span.end();
}
