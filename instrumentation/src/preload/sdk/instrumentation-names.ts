import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { OWN_INSTRUMENTATIONS } from './own-instrumentations.js';

const STOCK_PACKAGE = '@opentelemetry/auto-instrumentations-node';
const PREFIX = '@opentelemetry/instrumentation-';

let stock: string[] | undefined;

/**
 * The short names of @opentelemetry/auto-instrumentations-node's set (`http`, `pg`, `redis`…), the
 * names OTEL_NODE_ENABLED_INSTRUMENTATIONS takes. Read from the package's own dependency list, the
 * set its getNodeAutoInstrumentations() builds, so an upgrade that adds one needs no edit here.
 */
export function stockInstrumentationNames(): string[] {
  if (stock) return stock;
  try {
    const load = createRequire(import.meta.url);
    // build/src/index.js → the package root; its package.json is not among the exported subpaths.
    const root = join(dirname(load.resolve(STOCK_PACKAGE)), '..', '..');
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    stock = Object.keys(manifest.dependencies ?? {})
      .filter((name) => name.startsWith(PREFIX))
      .map((name) => name.slice(PREFIX.length));
  } catch {
    stock = [];
  }
  return stock;
}

export function stockPackageName(short: string): string {
  return `${PREFIX}${short}`;
}

/** Every name a user may give: the stock set and Faultline's own (own-instrumentations.ts). */
export function knownInstrumentationNames(): Set<string> {
  return new Set([...stockInstrumentationNames(), ...Object.keys(OWN_INSTRUMENTATIONS)]);
}
