import { errorMonitor } from 'node:events';
import { diag } from '@opentelemetry/api';
import { fileSpanError } from '../../pipeline/span-errors.js';
import { activeRpcSpan, CLIENT, isCapture, markCapture } from './grpc-wrappers.js';

type AnyFn = (this: unknown, ...args: unknown[]) => unknown;
type Bag = Record<string | symbol, unknown>;

/** Client.prototype methods, with whether the call answers with a stream. */
export const CLIENT_REQUESTS: Readonly<Record<string, boolean>> = {
  makeUnaryRequest: false,
  makeClientStreamRequest: false,
  makeServerStreamRequest: true,
  makeBidiStreamRequest: true,
};

/**
 * Wraps one client method so it runs *inside* instrumentation-grpc's wrapper: there its span is
 * active, and our hook sees the ServiceError before the instrumentation's own callback or
 * errorMonitor listener ends the span. Unary and client-streaming calls answer through the last
 * function argument (grpc-js checkOptionalUnaryResponseArguments, src/client.ts); streaming
 * responses emit 'error' with the ServiceError (callErrorFromStatus, src/call.ts), whose
 * `metadata` is the trailers.
 */
export function captureClientMethod(original: AnyFn, responseStream: boolean, fixedPath?: string): AnyFn {
  const capture = function (this: unknown, ...args: unknown[]): unknown {
    const span = activeRpcSpan(CLIENT, fixedPath ?? args[0]);
    if (span === undefined) return original.apply(this, args);
    if (!responseStream) {
      const index = args.findLastIndex((arg) => typeof arg === 'function');
      const callback = args[index] as AnyFn | undefined;
      if (callback !== undefined) {
        args[index] = function (this: unknown, err: unknown, ...rest: unknown[]) {
          if (err) fileSpanError(span, err);
          return callback.call(this, err, ...rest);
        };
      }
    }
    const call = original.apply(this, args) as { on?: unknown } | undefined;
    if (responseStream && typeof call?.on === 'function') {
      try {
        (call.on as AnyFn).call(call, errorMonitor, (err: unknown) => fileSpanError(span, err));
      } catch (err) {
        diag.warn('faultline: grpc stream capture failed', err);
      }
    }
    return call;
  };
  // Generated methods carry path, requestStream, responseStream…: the instrumentation reads them.
  Object.assign(capture, original);
  return markCapture(capture);
}

/** A generated client class: its prototype methods are grpc-js partials over Client.prototype. */
export function captureGeneratedClient(ctor: unknown): void {
  if (typeof ctor !== 'function') return;
  const proto = (ctor as { prototype?: Bag }).prototype;
  const service = (ctor as { service?: Record<string, Bag> }).service;
  if (!proto || !service || typeof service !== 'object') return;
  for (const [name, definition] of Object.entries(service)) {
    const method = proto[name];
    if (typeof method !== 'function' || isCapture(method)) continue;
    const path = typeof definition?.path === 'string' ? definition.path : undefined;
    const wrapped = captureClientMethod(method as AnyFn, definition?.responseStream === true, path);
    proto[name] = wrapped;
    // make-client.ts assigns the same function under the .proto name ("Charge") too.
    const originalName = definition?.originalName;
    if (typeof originalName === 'string' && proto[originalName] === method) proto[originalName] = wrapped;
  }
}

/**
 * loadPackageDefinition's result: nested namespaces of generated clients and message types (the
 * latter carry a `format` string), walked the way instrumentation-grpc's _patchLoadedPackage does.
 */
export function captureLoadedPackage(tree: unknown, depth = 0): void {
  if (tree === null || typeof tree !== 'object' || depth > 16) return;
  for (const value of Object.values(tree as Bag)) {
    if (typeof value === 'function') captureGeneratedClient(value);
    else if (value !== null && typeof value === 'object' && typeof (value as Bag).format !== 'string')
      captureLoadedPackage(value, depth + 1);
  }
}
