import { InstrumentationNodeModuleFile } from '@opentelemetry/instrumentation';
import { safely } from './safe.js';

// biome-ignore lint/suspicious/noExplicitAny: a wrapper takes and returns whatever method it wraps.
type Wrapper = (original: any) => any;

/** The InstrumentationBase methods a file patch needs (protected there: the instrumentation hands them over). */
export interface Shimmer {
  wrap(target: object, method: string, wrapper: Wrapper): void;
  unwrap(target: object, methods: string[]): void;
}

/**
 * One internal file of a package whose methods an instrumentation wraps: `targetOf` finds the
 * object that holds them in the file's exports (the exports themselves, a class's prototype), and
 * each method present is wrapped on load and unwrapped on disable. Never throws into the host.
 */
export function methodFile<E>(
  path: string,
  versions: string[],
  targetOf: (exports: E) => object | undefined,
  wrappers: Record<string, Wrapper>,
  shimmer: Shimmer,
): InstrumentationNodeModuleFile {
  const methods = Object.keys(wrappers);
  return new InstrumentationNodeModuleFile(
    path,
    versions,
    (exports: E) => {
      safely(`${path} patch`, () => {
        const target =
          exports == null ? undefined : (targetOf(exports) as Record<string, unknown> | undefined);
        if (!target) return;
        for (const method of methods) {
          if (typeof target[method] === 'function') shimmer.wrap(target, method, wrappers[method]!);
        }
      });
      return exports;
    },
    (exports?: E) => {
      safely(`${path} unpatch`, () => {
        const target = exports == null ? undefined : targetOf(exports);
        if (target) shimmer.unwrap(target, methods);
      });
    },
  );
}
