import type {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
} from '@opentelemetry/instrumentation';
import { safely } from './safe.js';

type Patch = (exports: unknown, version?: string) => unknown;

/**
 * Runs `install` on a module's exports just before the instrumentation patches them (the module
 * definition and each of its files), so whatever `install` wraps ends up *under* the
 * instrumentation's wrappers: it runs inside the call's span and sees the driver's error before
 * the instrumentation's own handler ends that span.
 */
export function installUnderPatches(
  definitions: InstrumentationNodeModuleDefinition[],
  moduleName: string,
  install: (exports: unknown) => void,
): InstrumentationNodeModuleDefinition[] {
  for (const definition of definitions) {
    if (definition.name !== moduleName) continue;
    const targets: (InstrumentationNodeModuleDefinition | InstrumentationNodeModuleFile)[] = [
      definition,
      ...definition.files,
    ];
    for (const target of targets) {
      const patch = target.patch as Patch | undefined;
      if (!patch) continue;
      target.patch = ((exports: unknown, version?: string) => {
        safely(`${moduleName} error capture`, () => install(exports));
        return patch(exports, version);
      }) as typeof target.patch;
    }
  }
  return definitions;
}

/** The CommonJS value behind an ESM namespace (`default`), or the exports themselves. */
export function commonJsValue(exports: unknown): unknown {
  const mod = exports as { [Symbol.toStringTag]?: string; default?: unknown } | undefined;
  return mod?.[Symbol.toStringTag] === 'Module' ? mod.default : mod;
}
