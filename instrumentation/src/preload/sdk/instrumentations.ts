import { getNodeAutoInstrumentations } from '@opentelemetry/auto-instrumentations-node';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import type { PreloadState } from '../pipeline/preload-state.js';
import { stockInstrumentationNames, stockPackageName } from './instrumentation-names.js';
import { OWN_INSTRUMENTATIONS } from './own-instrumentations.js';
import { rebuildInstrumentations } from './rebuild-instrumentations.js';
import type { InstrumentationSelection } from './types.js';

/**
 * The preload stands on @opentelemetry/auto-instrumentations-node: the same set, chosen by the same
 * names, a stock setup runs. The instrumentations Faultline hooks are swapped for its clients with
 * the same configuration (rebuild-instrumentations.ts, shared with faultline() for a team's own
 * SDK), and Faultline's own instrumentations for libraries OpenTelemetry has none for are added.
 */
export function createInstrumentations(state: PreloadState): Instrumentation[] {
  const selection = state.config.instrumentations;
  const stock = getNodeAutoInstrumentations(stockConfigs(selection));
  return [...rebuildInstrumentations(state, stock), ...ownInstrumentations(selection)];
}

/** Faultline's own instrumentations the selection leaves on (all of them by default). */
export function ownInstrumentations(selection: InstrumentationSelection): Instrumentation[] {
  return Object.entries(OWN_INSTRUMENTATIONS)
    .filter(([name]) => isSelected(selection, name))
    .map(([, create]) => create());
}

function isSelected({ enabled, disabled }: InstrumentationSelection, name: string): boolean {
  return (enabled === undefined || enabled.includes(name)) && !disabled.includes(name);
}

/**
 * Off unless named in OTEL_NODE_ENABLED_INSTRUMENTATIONS, beside the package's own default
 * exclusions (fs, host-metrics): a span for every socket connect and name lookup under every client
 * call, saying nothing the call's own span does not, at a cost on every connection. Named, they run
 * and Faultline folds their spans into the call they belong to (span-processor.ts).
 */
export const QUIET_BY_DEFAULT: readonly string[] = ['dns', 'net'];

/**
 * An explicit switch only where the selection decides: an enabled list decides every name, a
 * disabled name is off, a quiet one is off by default; the rest keep the package's defaults.
 */
function stockConfigs(selection: InstrumentationSelection): Record<string, { enabled: boolean }> {
  const configs: Record<string, { enabled: boolean }> = {};
  for (const name of stockInstrumentationNames()) {
    const quiet = selection.enabled === undefined && QUIET_BY_DEFAULT.includes(name);
    if (selection.enabled !== undefined || selection.disabled.includes(name) || quiet)
      configs[stockPackageName(name)] = { enabled: !quiet && isSelected(selection, name) };
  }
  return configs;
}
