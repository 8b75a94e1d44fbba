import module from 'node:module';
import { DiagConsoleLogger, DiagLogLevel, diag } from '@opentelemetry/api';
import { CompositePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import {
  detectResources,
  envDetector,
  hostDetector,
  processDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { readConfig } from './config.js';
import { CorrelationPropagator } from './correlation.js';
import { subscribeDriverErrors } from './driver-errors.js';
import { installExitHooks } from './exit-hooks.js';
import { BoundedBatchProcessor } from './export-processor.js';
import { createExporter } from './exporter.js';
import { installFetchWrapper } from './fetch-peek.js';
import { createInstrumentations } from './instrumentations.js';
import { createPreloadState } from './preload-state.js';
import { safely, warnOnce } from './safe.js';
import { FaultlineSpanProcessor } from './span-processor.js';
import type { StartOptions } from './types.js';
import { subscribeUndiciErrors } from './undici-hooks.js';

const TRACER_NAME = '@faultline/instrumentation';

interface Running {
  provider: NodeTracerProvider;
  batch: BoundedBatchProcessor;
  cleanups: (() => void)[];
  stopped?: Promise<void>;
}

let running: Running | undefined;

/**
 * Starts tracing with envelope classification. Idempotent: the `register` preload and an explicit
 * call in the application's bootstrap may both run. Never throws into the host.
 */
export function start(options: StartOptions = {}): void {
  if (running) return;
  safely('start', () => {
    const { config, warnings } = readConfig(options);
    if (config.debug) diag.setLogger(new DiagConsoleLogger(), DiagLogLevel.DEBUG);
    for (const w of warnings) warnOnce(w);
    if (config.disabled) return;
    registerEsmHooks();

    const state = createPreloadState(config);
    const batch = new BoundedBatchProcessor(createExporter(config), config.maxQueueSize);
    const detected = detectResources({ detectors: [envDetector, processDetector, hostDetector] });
    const resource = config.serviceName
      ? detected.merge(resourceFromAttributes({ 'service.name': config.serviceName }))
      : detected;
    const provider = new NodeTracerProvider({
      resource,
      spanProcessors: [new FaultlineSpanProcessor(state), batch],
    });
    provider.register({
      propagator: new CompositePropagator({
        propagators: [new W3CTraceContextPropagator(), new CorrelationPropagator()],
      }),
    });

    // Channel subscribers go first so they run while the instrumentations' spans are still open.
    const cleanups = [subscribeUndiciErrors(), subscribeDriverErrors()];
    cleanups.push(
      registerInstrumentations({ instrumentations: createInstrumentations(state), tracerProvider: provider }),
      installFetchWrapper(state, provider.getTracer(TRACER_NAME)),
    );
    let flushedAt = 0;
    const flush = (): Promise<void> => {
      flushedAt = batch.accepted;
      return batch.forceFlush();
    };
    cleanups.push(installExitHooks(flush, () => batch.accepted > flushedAt));
    running = { provider, batch, cleanups };
  });
}

/** Flushes and stops; idempotent, and resolves even when the collector is unreachable. */
export function shutdown(): Promise<void> {
  const current = running;
  if (!current) return Promise.resolve();
  current.stopped ??= (async () => {
    for (const cleanup of current.cleanups) safely('cleanup', cleanup);
    await current.provider.shutdown().catch((err: unknown) => diag.warn('faultline: shutdown failed', err));
  })();
  return current.stopped;
}

/** Spans dropped because the export queue was full since start (0 when not started). */
export function droppedSpans(): number {
  return running?.batch.dropped ?? 0;
}

/**
 * ESM `import pg from 'pg'` and `import http from 'node:http'` are only patchable through
 * import-in-the-middle's loader hook, which must be registered before the application loads.
 */
function registerEsmHooks(): void {
  if (typeof module.register !== 'function') return;
  safely('module.register', () =>
    module.register('@opentelemetry/instrumentation/hook.mjs', import.meta.url),
  );
}
