import type * as SqlModule from '@faultline/sql';

let loaded: Promise<typeof SqlModule> | undefined;

/**
 * @faultline/sql is loaded by Node at run time instead of being bundled into the pages: under
 * `npm start` the OTLP receiver and the pages must share one module instance, one chDB engine and
 * one Store (it is a workspace symlink, which serverExternalPackages does not cover).
 */
export function sqlModule(): Promise<typeof SqlModule> {
  loaded ??= import(/* webpackIgnore: true */ /* turbopackIgnore: true */ '@faultline/sql');
  return loaded;
}
