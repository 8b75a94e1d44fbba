import type { Instrumentation } from '@opentelemetry/instrumentation';
import { AwsInstrumentation } from '@opentelemetry/instrumentation-aws-sdk';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { MySQL2Instrumentation } from '@opentelemetry/instrumentation-mysql2';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { awsHooks } from './aws-hook.js';
import { EsmAwareGrpcInstrumentation } from './grpc-esm.js';
import { httpHooks } from './http-hooks.js';
import { IORedisErrorInstrumentation } from './ioredis-errors.js';
import { PgErrorInstrumentation } from './pg-errors.js';
import type { PreloadState } from './preload-state.js';
import { TediousErrorInstrumentation } from './tedious-errors.js';
import { undiciHooks } from './undici-hooks.js';

/** One instrumentation per client the issue lists, each wired to the hooks that reach the error. */
export function createInstrumentations(state: PreloadState): Instrumentation[] {
  const factories: Record<string, () => Instrumentation> = {
    http: () => new HttpInstrumentation(httpHooks(state)),
    undici: () => new UndiciInstrumentation(undiciHooks(state)),
    pg: () => new PgErrorInstrumentation(),
    mysql2: () => new MySQL2Instrumentation(),
    tedious: () => new TediousErrorInstrumentation(),
    ioredis: () => new IORedisErrorInstrumentation(),
    'aws-sdk': () => new AwsInstrumentation(awsHooks()),
    grpc: () => new EsmAwareGrpcInstrumentation(),
  };
  return [...state.config.instrumentations].flatMap((name) => {
    const factory = factories[name];
    return factory ? [factory()] : [];
  });
}
