import type { InstrumentationNodeModuleDefinition } from '@opentelemetry/instrumentation';
import { GrpcInstrumentation } from '@opentelemetry/instrumentation-grpc';
import { safely } from '../../shared/safe.js';
import { captureGrpcErrors } from './grpc-capture.js';

/** The factories whose generated clients the instrumentation wraps; prototypes are shared anyway. */
const CLIENT_FACTORIES = ['makeGenericClientConstructor', 'makeClientConstructor', 'loadPackageDefinition'];

type Exports = Record<string | symbol, unknown>;

/**
 * instrumentation-grpc patches the module object it is handed. Under the ESM loader hook that is
 * import-in-the-middle's namespace, while `import grpc from '@grpc/grpc-js'` reads the CommonJS
 * `module.exports` behind `default`, so generated clients got no CLIENT span. grpc-js binds
 * `Client.prototype.makeUnaryRequest` into each generated method when the client is built, so only
 * the factories matter: the patched ones are carried over to `default` too. Before each patch,
 * grpc-capture.ts installs the wrappers that hand the real grpc-js error to the span.
 */
export class EsmAwareGrpcInstrumentation extends GrpcInstrumentation {
  override init(): InstrumentationNodeModuleDefinition[] {
    const definitions = super.init();
    for (const definition of definitions) {
      const { patch, unpatch } = definition;
      if (patch === undefined) continue;
      // grpc-js re-exports through configurable getters: descriptors are what gets restored.
      const originals = new Map<string, PropertyDescriptor>();
      const releases: (() => void)[] = [];
      definition.patch = (moduleExports: Exports, version?: string) => {
        // First, so the instrumentation's wrappers go around ours (see grpc-capture.ts).
        const release = safely('grpc error capture', () => captureGrpcErrors(moduleExports));
        if (release) releases.push(release);
        const patched = patch(moduleExports, version) as Exports;
        safely('grpc ESM default patch', () => carryOver(moduleExports, originals));
        return patched;
      };
      definition.unpatch = (moduleExports: Exports, version?: string) => {
        unpatch?.(moduleExports, version);
        for (const release of releases.splice(0)) safely('grpc error capture release', release);
        const target = commonJsExports(moduleExports);
        safely('grpc ESM default unpatch', () => {
          for (const [name, descriptor] of originals)
            if (target) Object.defineProperty(target, name, descriptor);
        });
        originals.clear();
      };
    }
    return definitions;
  }
}

function carryOver(moduleExports: Exports, originals: Map<string, PropertyDescriptor>): void {
  const target = commonJsExports(moduleExports);
  if (target === undefined) return;
  for (const name of CLIENT_FACTORIES) {
    const current = target[name];
    const wrapped = moduleExports[name];
    // Already wrapped when a require() of the same module was patched first.
    if (typeof current !== 'function' || '__wrapped' in current || current === wrapped) continue;
    const descriptor = Object.getOwnPropertyDescriptor(target, name);
    if (descriptor === undefined || !descriptor.configurable) continue;
    originals.set(name, descriptor);
    Object.defineProperty(target, name, {
      value: wrapped,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
}

function commonJsExports(moduleExports: Exports | undefined): Exports | undefined {
  if (moduleExports?.[Symbol.toStringTag] !== 'Module') return undefined;
  const target = moduleExports.default;
  return target !== null && typeof target === 'object' ? (target as Exports) : undefined;
}
