import module from 'node:module';
import { DiagConsoleLogger, DiagLogLevel, diag, trace } from '@opentelemetry/api';
import { CompositePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { type Instrumentation, registerInstrumentations } from '@opentelemetry/instrumentation';
import {
  detectResources,
  envDetector,
  hostDetector,
  processDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { DISTRO_NAME, DISTRO_NAME_KEY } from '../../envelope/attribute-names.js';
import { escapeRegExp } from '../../redact/escape-regexp.js';
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
import { safely, warnOnce } from '../shared/safe.js';
import { readConfig } from './config.js';
import { type CountExport, startCountExport } from './count-meter.js';
import { ExitFlushProcessor } from './exit-flush-processor.js';
import { installExitHooks } from './exit-hooks.js';
import { createExporter } from './exporter.js';
import { createInstrumentations } from './instrumentations.js';
import { KeepFailuresProcessor } from './keep-failures-processor.js';
import { type LogExport, startLogExport } from './log-export.js';
import { sendOnlyFailureLines } from './pino-failure-lines.js';
import { createSampler } from './sampler.js';
import type { StartOptions } from './types.js';

const TRACER_NAME = '@faultline/instrumentation';
/** Below the exporter's first retry backoff (~1 s), so an exit flush never waits on a retry. */
const EXIT_EXPORT_TIMEOUT_MS = 500;

interface Running {
  provider: NodeTracerProvider;
  batch: ExitFlushProcessor;
  counts: CountExport | undefined;
  logs: LogExport | undefined;
  cleanups: (() => void)[];
  stopped?: Promise<void>;
}

/**
 * Kept on globalThis: the preload bundle (`register`) and the application's copy of the package
 * (`start()` from the index, ESM or CJS build) are separate module instances, yet must start once.
 */
const KEY = Symbol.for('faultline.preload');
const holder = globalThis as { [KEY]?: Running | 'starting' };

/**
 * Starts tracing with envelope classification. Idempotent: the `register` preload and an explicit
 * call in the application's bootstrap may both run. Never throws into the host.
 */
export function start(options: StartOptions = {}): void {
  if (holder[KEY]) return;
  holder[KEY] = 'starting';
  safely('start', () => {
    const { config, exporter, counts: countSettings, logs: logSettings, warnings } = readConfig(options);
    if (config.debug) diag.setLogger(new DiagConsoleLogger(), DiagLogLevel.DEBUG);
    for (const w of warnings) warnOnce(w);
    if (config.disabled) return;
    // A second SDK would patch every module twice and lose the race for the global provider.
    if (sdkRegistered()) {
      warnOnce(ALREADY_REGISTERED);
      return;
    }
    setExportDerived(config.exportDerived);
    const state = createPreloadState(config);
    // Channel subscribers go first so they run while the instrumentations' spans are still open
    // (instrumentations subscribe when constructed).
    const cleanups = [subscribeUndiciErrors(), subscribeDriverErrors(), subscribeFastifyErrors()];
    const instrumentations = createInstrumentations(state);
    registerEsmHooks(instrumentations);

    const batch = new ExitFlushProcessor(
      createExporter(exporter),
      createExporter(exporter, EXIT_EXPORT_TIMEOUT_MS),
      { maxQueueSize: exporter.maxQueueSize, scheduledDelayMillis: exporter.scheduledDelayMillis },
    );
    const detected = detectResources({ detectors: [envDetector, processDetector, hostDetector] });
    // The distro mark last, so no OTEL_RESOURCE_ATTRIBUTES hides from the collector that these spans
    // left their derivable attributes off the wire.
    const resource = detected.merge(
      resourceFromAttributes({
        ...(config.serviceName ? { 'service.name': config.serviceName } : {}),
        [DISTRO_NAME_KEY]: DISTRO_NAME,
      }),
    );
    // Every call and failure, counted in process whatever the sampler keeps (pipeline/call-counter.ts).
    const counts = startCountExport(countSettings, resource);
    // The errors the application logs, registered before the instrumentations (pino's log sending
    // takes its logger from the global provider when the application creates a logger).
    const logs = startLogExport(logSettings, resource);
    // Only lines that can be failures are parsed by pino's log sending when the logs go out.
    if (logs) sendOnlyFailureLines();
    // None for every sampler but the two ratio ones (and the default, when the counts need the spans
    // of an unsampled upstream trace recorded): the SDK reads OTEL_TRACES_SAMPLER itself. Left
    // out rather than undefined, which the SDK's config merge would take over its own default.
    // Spans the ratio drops are still recorded when either needs to see them end: the kept
    // failures, and the counts, which must count every call.
    const sampler = createSampler(
      config.sampling,
      config.keepFailures || counts !== undefined,
      process.env.OTEL_TRACES_SAMPLER,
    );
    const provider = new NodeTracerProvider({
      resource,
      ...(sampler ? { sampler } : {}),
      // After Faultline's processor, whose onEnding settles what failed. Only when the option is
      // on: otherwise the batch processor sees the spans directly, at no cost per span.
      spanProcessors: [
        new FaultlineSpanProcessor(state, counts?.counter),
        config.keepFailures ? new KeepFailuresProcessor(batch) : batch,
      ],
    });
    provider.register({
      propagator: new CompositePropagator({
        propagators: [new W3CTraceContextPropagator(), new CorrelationPropagator()],
      }),
    });
    cleanups.push(
      registerInstrumentations({ instrumentations, tracerProvider: provider }),
      installFetchWrapper(state, provider.getTracer(TRACER_NAME)),
    );
    let flushedAt = 0;
    const flush = (): Promise<void> => {
      // A SIGTERM can arrive while a fetch span waits for its body to be read: end it now.
      endSpansWaitingOnBodies();
      flushedAt = batch.accepted;
      return Promise.all([batch.flushForExit(), counts?.flushForExit(), logs?.flushForExit()]).then(
        () => undefined,
      );
    };
    const unflushed = () =>
      batch.accepted > flushedAt || counts?.hasUnflushed() === true || logs?.hasUnflushed() === true;
    cleanups.push(installExitHooks(flush, unflushed));
    holder[KEY] = { provider, batch, counts, logs, cleanups };
  });
}

/** Flushes and stops; idempotent, and resolves even when the collector is unreachable. */
export function shutdown(): Promise<void> {
  const current = holder[KEY];
  if (!current || current === 'starting') return Promise.resolve();
  current.stopped ??= (async () => {
    for (const cleanup of current.cleanups) safely('cleanup', cleanup);
    await Promise.all([
      current.provider.shutdown(),
      current.counts?.shutdown(),
      current.logs?.shutdown(),
    ]).catch((err: unknown) => diag.warn('faultline: shutdown failed', err));
  })();
  return current.stopped;
}

const ALREADY_REGISTERED =
  'an OpenTelemetry SDK is already registered in this process, so the preload stays off: add ' +
  "Faultline to that SDK with faultline() from '@faultline/instrumentation/sdk' (see the package README)";

/**
 * Whether a tracer provider is registered globally. The API always hands out its proxy provider;
 * the proxy has a delegate only once an SDK registered (any copy of @opentelemetry/api 1.x shares
 * the global). Duck-typed, because that copy's classes are not ours.
 */
function sdkRegistered(): boolean {
  const provider = trace.getTracerProvider() as { getDelegateTracer?: (name: string) => unknown };
  if (typeof provider.getDelegateTracer !== 'function') return true;
  return provider.getDelegateTracer(TRACER_NAME) !== undefined;
}

/**
 * ESM `import pg from 'pg'` is only patchable through import-in-the-middle's loader hook, which
 * must be registered before the application loads. The hook is limited to the npm modules the
 * instrumentations patch: wrapping every ESM module of the application costs each of them.
 * Builtins (node:http) stay out of it: requiring them here lets require-in-the-middle patch the
 * one module object that ESM `import http from 'node:http'` also receives, and
 * syncBuiltinESMExports() carries the patch to named imports (`import { request } …`).
 */
function registerEsmHooks(instrumentations: Instrumentation[]): void {
  // InstrumentationBase exposes its module definitions; the Instrumentation interface does not.
  const names = instrumentations.flatMap(
    (i) => (i as Partial<ModuleDefinitions>).getModuleDefinitions?.().map((d) => d.name) ?? [],
  );
  const builtins = names.filter((n) => module.isBuiltin(n));
  safely('builtin patch', () => {
    const load = module.createRequire(import.meta.url);
    for (const name of builtins) load(name);
    module.syncBuiltinESMExports();
  });
  if (typeof module.register !== 'function') return;
  const packages = names.filter((n) => !module.isBuiltin(n));
  const include: (string | RegExp)[] = [...packages];
  for (const name of packages) include.push(new RegExp(`/node_modules/${escapeRegExp(name)}/`));
  safely('module.register', () =>
    module.register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include } }),
  );
}

interface ModuleDefinitions {
  getModuleDefinitions(): { name: string }[];
}
