import { type TextMapPropagator, trace } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { NoopSpanProcessor, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { subscribeFastifyErrors } from '../clients/fastify/index.js';
import { subscribeDriverErrors } from '../clients/mysql2/index.js';
import {
  endSpansWaitingOnBodies,
  installFetchWrapper,
  subscribeUndiciErrors,
} from '../clients/undici/index.js';
import { CallCounter } from '../pipeline/call-counter.js';
import { CorrelationPropagator } from '../pipeline/correlation.js';
import { createPreloadState } from '../pipeline/preload-state.js';
import { setExportDerived } from '../pipeline/span-envelope.js';
import { FaultlineSpanProcessor } from '../pipeline/span-processor.js';
import { readFaultlineConfig } from '../sdk/config.js';
import type { CountSettings } from '../sdk/count-config.js';
import { type CountExport, startCountExport } from '../sdk/count-meter.js';
import { ownInstrumentations } from '../sdk/instrumentations.js';
import { KeepFailuresProcessor } from '../sdk/keep-failures-processor.js';
import { rebuildInstrumentations } from '../sdk/rebuild-instrumentations.js';
import { createSampler } from '../sdk/sampler.js';
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
 *   sampler: fl.sampler, // undefined unless OTEL_TRACES_SAMPLER is a ratio one: then the SDK's own
 *   textMapPropagator: fl.propagator,
 *   spanProcessors: [fl.spanProcessor, fl.exportProcessor(new BatchSpanProcessor(new OTLPTraceExporter()))],
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
  const { config, selection, sampling, keepFailures, counts, warnings } = readFaultlineConfig({
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
  // Every call and failure counted in process, exported as the preload exports them (count-meter.ts).
  const counter = counts.enabled ? new CallCounter() : undefined;
  return {
    spanProcessor: new SetupSpanProcessor(state, cleanups, counter && { counter, settings: counts }),
    sampler:
      safely('faultline sampler', () =>
        createSampler(sampling, keepFailures || counter !== undefined, process.env.OTEL_TRACES_SAMPLER),
      ) ?? undefined,
    exportProcessor: (next) => (keepFailures ? new KeepFailuresProcessor(next) : next),
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
  private countExport: CountExport | undefined;

  constructor(
    state: ConstructorParameters<typeof FaultlineSpanProcessor>[0],
    private readonly cleanups: (() => void)[],
    private readonly counts?: { counter: CallCounter; settings: CountSettings },
  ) {
    super(state, counts?.counter);
  }

  override onEnd(span: ReadableSpan): void {
    // The counts' export starts with the first span: its resource is the application's (the
    // service name its SDK was given, in code or in the environment), which the counts must carry.
    if (this.counts && !this.countExport && !this.stopped)
      this.countExport = safely('faultline counts', () =>
        startCountExport(this.counts!.settings, span.resource, this.counts!.counter),
      );
    super.onEnd(span);
  }

  override forceFlush(): Promise<void> {
    return Promise.all([super.forceFlush(), this.countExport?.flushForExit()]).then(() => undefined);
  }

  override shutdown(): Promise<void> {
    if (!this.stopped) {
      this.stopped = true;
      safely('end spans waiting on bodies', endSpansWaitingOnBodies);
      for (const cleanup of this.cleanups) safely('cleanup', cleanup);
    }
    const counts = this.countExport;
    this.countExport = undefined;
    // What was counted since the last export leaves before the reader stops.
    const flushed = counts ? counts.flushForExit().then(() => counts.shutdown()) : Promise.resolve();
    return Promise.all([super.shutdown(), flushed]).then(() => undefined);
  }
}

/** Adds nothing, changes nothing: when the preload already runs, or setting up failed. */
function inert(): Faultline {
  const propagator: TextMapPropagator = new CompositePropagator({
    propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
  });
  return {
    spanProcessor: new NoopSpanProcessor(),
    propagator,
    instrumentations: (list) => list.flat(),
    sampler: undefined,
    exportProcessor: (next: SpanProcessor) => next,
  };
}
