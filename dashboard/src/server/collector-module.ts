import type * as CollectorModule from '@faultline/collector';

let loaded: Promise<typeof CollectorModule> | undefined;

/**
 * The collector package is loaded by Node at run time instead of being bundled into the pages:
 * under `npm start` the OTLP receiver and the pages must share one module instance, one chDB
 * engine and one Store (it is a workspace symlink, which serverExternalPackages does not cover).
 */
export function collectorModule(): Promise<typeof CollectorModule> {
  loaded ??= import(/* webpackIgnore: true */ /* turbopackIgnore: true */ '@faultline/collector');
  return loaded;
}
