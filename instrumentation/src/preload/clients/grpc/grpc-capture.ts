import { types } from 'node:util';
import { diag } from '@opentelemetry/api';
import {
  CLIENT_REQUESTS,
  captureClientMethod,
  captureGeneratedClient,
  captureLoadedPackage,
} from './grpc-client-capture.js';
import { captureRegister } from './grpc-server-capture.js';
import { isCapture, markCapture } from './grpc-wrappers.js';

type AnyFn = (this: unknown, ...args: unknown[]) => unknown;
type Exports = Record<string | symbol, unknown>;

/** Factories whose generated clients get capturing methods, and how to find those clients. */
const FACTORIES: Readonly<Record<string, (result: unknown) => void>> = {
  makeClientConstructor: captureGeneratedClient,
  makeGenericClientConstructor: captureGeneratedClient,
  loadPackageDefinition: captureLoadedPackage,
};

interface Undo {
  target: Exports;
  name: string;
  wrapper: unknown;
  descriptor: PropertyDescriptor;
}

/**
 * Installs the error-capturing wrappers on a grpc-js module object, before instrumentation-grpc
 * patches it, so that each of its wrappers ends up around one of ours. The library is reached
 * through several objects (CommonJS exports, the ESM namespace) sharing one Client and one
 * Server class: whatever is already ours is left as is, so a second patch adds no layer and a
 * call still gets exactly one span. Returns the undo for unpatch.
 */
export function captureGrpcErrors(moduleExports: Exports): () => void {
  const undo: Undo[] = [];
  const client = (moduleExports.Client as { prototype?: Exports } | undefined)?.prototype;
  if (client) {
    for (const [name, responseStream] of Object.entries(CLIENT_REQUESTS))
      replace(client, name, (fn) => captureClientMethod(fn, responseStream), undo);
  }
  const server = (moduleExports.Server as { prototype?: Exports } | undefined)?.prototype;
  if (server) replace(server, 'register', captureRegister, undo);
  for (const [name, capture] of Object.entries(FACTORIES))
    replace(moduleExports, name, (fn) => captureFactory(fn, capture), undo);
  return () => {
    for (const { target, name, wrapper, descriptor } of undo.reverse())
      if (target[name] === wrapper) Object.defineProperty(target, name, descriptor);
  };
}

function replace(target: Exports, name: string, wrap: (fn: AnyFn) => AnyFn, undo: Undo[]): void {
  const current = target[name];
  if (typeof current !== 'function' || isCapture(current)) return;
  const descriptor = Object.getOwnPropertyDescriptor(target, name);
  if (descriptor !== undefined && !descriptor.configurable) return;
  const wrapper = wrap(current as AnyFn);
  // import-in-the-middle's namespace is a Proxy that takes a bare value, as the instrumentation's
  // own _wrap does it; plain objects get a writable property, as shimmer leaves them.
  Object.defineProperty(
    target,
    name,
    types.isProxy(target)
      ? { value: wrapper }
      : { value: wrapper, writable: true, enumerable: true, configurable: true },
  );
  undo.push({
    target,
    name,
    wrapper,
    descriptor: descriptor ?? { value: current, writable: true, configurable: true },
  });
}

function captureFactory(factory: AnyFn, capture: (result: unknown) => void): AnyFn {
  return markCapture(function (this: unknown, ...args: unknown[]): unknown {
    const result = factory.apply(this, args);
    try {
      capture(result);
    } catch (err) {
      // A client without capture still works and still gets its span; only the detail is lost.
      diag.warn('faultline: grpc client capture failed', err);
    }
    return result;
  });
}
