import { type TextMapPropagator, trace } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { subscribeFastifyErrors } from '../clients/fastify/index.js';
import { subscribeDriverErrors } from '../clients/mysql2/index.js';
import {
  endSpansWaitingOnBodies,
  installFetchWrapper,
  subscribeUndiciErrors,
} from '../clients/undici/index.js';
import { CorrelationPropagator } from '../pipeline/correlation.js';
import { createPreloadState } from '../pipeline/preload-state.js';
import { setExportDerived } from '../pipeline/span-envelope.js';
import { FaultlineSpanProcessor } from '../pipeline/span-processor.js';
import { readFaultlineConfig } from '../sdk/config.js';
import { ownInstrumentations } from '../sdk/instrumentations.js';
import { rebuildInstrumentations } from '../sdk/rebuild-instrumentations.js';
import { safely, warnOnce } from '../shared/safe.js';
import type { Faultline, FaultlineOptions } from './types.js';

const TRACER_NAME = '@faultline/instrumentation';
/** Set by the preload's start() (sdk/start.ts): its running instance once it runs. */
const PRELOAD = Symbol.for('faultline.preload');
/** One Faultline per process, whichever copy of the package (ESM or CJS build) asks. */
const KEY = Symbol.for('faultline.setup');
const holder = globalThis as { [PRELOAD]?: unknown; [KEY]?: Faultline };

const PRELOAD_RUNS =
  'the Faultline preload (@faultline/instrumentation/register) already runs in this process, so ' +
  'faultline() adds nothing: drop the preload flag when Faultline joins your own SDK';

/**
 * Faultline for a service that builds its own OpenTelemetry SDK: a span processor, the
 * instrumentation hooks and a propagator, plus the body taps and channel subscribers the preload
 * installs. Reads only FAULTLINE_* (and options); the exporter, sampler, resource and the rest
 * stay the application's. Idempotent (the first call's options win); never throws into the host.
 *
 * ```ts
 * const fl = faultline();
 * const sdk = new NodeSDK({
 *   textMapPropagator: fl.propagator,
 *   spanProcessors: [fl.spanProcessor, new BatchSpanProcessor(new OTLPTraceExporter())],
 *   instrumentations: fl.instrumentations(getNodeAutoInstrumentations()),
 * });
 * ```
 */
export function faultline(options: FaultlineOptions = {}): Faultline {
  const existing = holder[KEY];
  if (existing) return existing;
  let created: Faultline | undefined;
  // An object once the preload runs; 'starting' stays behind when it stayed off (disabled, refused).
  if (typeof holder[PRELOAD] === 'object') warnOnce(PRELOAD_RUNS);
  else created = safely('faultline()', () => create(options));
  holder[KEY] = created ?? inert();
  return holder[KEY];
}

function create(options: FaultlineOptions): Faultline {
  const { config, selection, warnings } = readFaultlineConfig({
    ...options,
    exportDerived: options.exportDerived ?? true,
  });
  for (const w of warnings) warnOnce(w);
  setExportDerived(config.exportDerived);
  const state = createPreloadState({
    ...config,
    disabled: false,
    serviceName: undefined,
    instrumentations: selection,
  });
  // Before any instrumentation Faultline builds subscribes, so these run while its span is open.
  const cleanups = [
    subscribeUndiciErrors(),
    subscribeDriverErrors(),
    subscribeFastifyErrors(),
    // The global API's tracer: it starts tracing once the application's SDK registers.
    installFetchWrapper(state, trace.getTracer(TRACER_NAME)),
  ];
  return {
    spanProcessor: new SetupSpanProcessor(state, cleanups),
    propagator: new CompositePropagator({
      propagators: [new W3CTraceContextPropagator(), new CorrelationPropagator()],
    }),
    instrumentations: (list) =>
      safely('faultline instrumentations', () => [
        ...rebuildInstrumentations(state, list),
        ...ownInstrumentations(selection),
      ]) ?? list.flat(),
  };
}

/**
 * The preload's span processor; on shutdown it first ends the fetch spans still waiting for the
 * application to read their body (synchronously, so an exporting processor listed after it still
 * takes them), then removes the taps and subscribers.
 */
class SetupSpanProcessor extends FaultlineSpanProcessor {
  private stopped = false;

  constructor(
    state: ConstructorParameters<typeof FaultlineSpanProcessor>[0],
    private readonly cleanups: (() => void)[],
  ) {
    super(state);
  }

  override shutdown(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      safely('end spans waiting on bodies', endSpansWaitingOnBodies);
      for (const cleanup of this.cleanups) safely('cleanup', cleanup);
    }
    return super.shutdown();
  }
}

/** Adds nothing, changes nothing: when the preload already runs, or setting up failed. */
function inert(): Faultline {
  const propagator: TextMapPropagator = new CompositePropagator({
    propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
  });
  return { spanProcessor: new NoopSpanProcessor(), propagator, instrumentations: (list) => list.flat() };
}
