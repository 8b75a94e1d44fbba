import type { Instrumentation, InstrumentationConfig } from '@opentelemetry/instrumentation';
import { AwsInstrumentation, type AwsSdkInstrumentationConfig } from '@opentelemetry/instrumentation-aws-sdk';
import { HttpInstrumentation, type HttpInstrumentationConfig } from '@opentelemetry/instrumentation-http';
import type { PgInstrumentationConfig } from '@opentelemetry/instrumentation-pg';
import {
  UndiciInstrumentation,
  type UndiciInstrumentationConfig,
} from '@opentelemetry/instrumentation-undici';
import { awsHooks } from '../clients/aws-sdk/index.js';
import { EsmAwareGrpcInstrumentation } from '../clients/grpc/index.js';
import { httpHooks } from '../clients/http/index.js';
import { IORedisErrorInstrumentation } from '../clients/ioredis/index.js';
import { PgErrorInstrumentation } from '../clients/pg/index.js';
import { TediousErrorInstrumentation } from '../clients/tedious/index.js';
import { undiciHooks } from '../clients/undici/index.js';
import type { PreloadState } from '../pipeline/preload-state.js';
import { composeHooks } from './compose-hooks.js';
import type { InstrumentationList } from './types.js';

type Rebuild = (state: PreloadState, config: InstrumentationConfig) => Instrumentation;

/**
 * The preload's client for each instrumentation Faultline hooks, built from the application's
 * configuration. mysql2 is absent on purpose: its driver error arrives on mysql2's own tracing
 * channels, which `faultline()` subscribes to, so the application's instance stays.
 */
const REBUILD: Record<string, Rebuild> = {
  '@opentelemetry/instrumentation-http': (state, config) =>
    new HttpInstrumentation(composeHooks(config as HttpInstrumentationConfig, httpHooks(state))),
  '@opentelemetry/instrumentation-undici': (state, config) =>
    new UndiciInstrumentation(composeHooks(config as UndiciInstrumentationConfig, undiciHooks(state))),
  '@opentelemetry/instrumentation-aws-sdk': (_, config) =>
    new AwsInstrumentation(composeHooks(config as AwsSdkInstrumentationConfig, awsHooks())),
  '@opentelemetry/instrumentation-pg': (_, config) => pgInstrumentation(config),
  '@opentelemetry/instrumentation-tedious': (_, config) => new TediousErrorInstrumentation(config),
  // Composes the application's requestHook with its own in setConfig.
  '@opentelemetry/instrumentation-ioredis': (_, config) => new IORedisErrorInstrumentation(config),
  '@opentelemetry/instrumentation-grpc': (_, config) => new EsmAwareGrpcInstrumentation(config),
};

/** Instances Faultline built, so a second pass over the same list leaves them alone. */
const built = new WeakSet<Instrumentation>();

/**
 * Swaps each instrumentation Faultline hooks for the preload's client with the same configuration.
 * The application's instance already enabled itself when it was constructed (instrumentations do):
 * it is disabled once Faultline's is built, so each module is patched once. Matched by name, not
 * class, so a second copy of an instrumentation package in node_modules is recognised too.
 */
export function rebuildInstrumentations(state: PreloadState, list: InstrumentationList): Instrumentation[] {
  return list.flat().map((instrumentation) => {
    const rebuild = REBUILD[instrumentation.instrumentationName];
    if (!rebuild || built.has(instrumentation)) return instrumentation;
    const ours = rebuild(state, instrumentation.getConfig());
    built.add(ours);
    instrumentation.disable();
    return ours;
  });
}

/**
 * The pg client sets its own requestHook (it marks the query the driver error belongs to): the
 * application's runs first, then Faultline's, right before the query as the preload has it.
 */
function pgInstrumentation(config: PgInstrumentationConfig): Instrumentation {
  const instrumentation = new PgErrorInstrumentation(config);
  if (config.requestHook) {
    const current = instrumentation.getConfig();
    const user = { ...current, requestHook: config.requestHook };
    instrumentation.setConfig(composeHooks(user, { requestHook: current.requestHook }, true));
  }
  return instrumentation;
}
