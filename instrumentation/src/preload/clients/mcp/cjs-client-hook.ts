import { createRequire } from 'node:module';
import { diag } from '@opentelemetry/api';

/**
 * The MCP SDK's CommonJS client, which the module hook of `InstrumentationBase` never sees: the
 * package's "." export names a file it does not ship (dist/cjs/index.js), so require-in-the-middle
 * cannot resolve the package's main module and skips every file of it. A hook on the client's own
 * specifiers (`@modelcontextprotocol/sdk/client/index.js`, `…/client`) is called by name instead.
 * require-in-the-middle is @opentelemetry/instrumentation's own, loaded through it: no second copy.
 * The ESM build goes through the instrumentation's file definitions (import-in-the-middle).
 */
const CLIENT_SPECIFIERS = ['@modelcontextprotocol/sdk/client/index.js', '@modelcontextprotocol/sdk/client'];

interface Ritm {
  Hook: new (
    modules: string[],
    options: { internals: boolean },
    onRequire: (exports: unknown, name: string, basedir?: string) => unknown,
  ) => { unhook(): void };
}

export function hookCjsClient(onClient: (exports: unknown) => void): { unhook(): void } | undefined {
  try {
    const load = createRequire(import.meta.url);
    const ritm = createRequire(load.resolve('@opentelemetry/instrumentation'))(
      'require-in-the-middle',
    ) as Ritm;
    return new ritm.Hook(CLIENT_SPECIFIERS, { internals: false }, (exports) => {
      onClient(exports);
      return exports;
    });
  } catch (err) {
    diag.debug('faultline: no CommonJS hook for the MCP client', err);
    return undefined;
  }
}
