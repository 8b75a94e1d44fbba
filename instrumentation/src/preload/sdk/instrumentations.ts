import type { Instrumentation } from '@opentelemetry/instrumentation';
import { awsSdkInstrumentation } from '../clients/aws-sdk/index.js';
import { grpcInstrumentation } from '../clients/grpc/index.js';
import { httpInstrumentation } from '../clients/http/index.js';
import { ioredisInstrumentation } from '../clients/ioredis/index.js';
import { mysql2Instrumentation } from '../clients/mysql2/index.js';
import { pgInstrumentation } from '../clients/pg/index.js';
import { tediousInstrumentation } from '../clients/tedious/index.js';
import { undiciInstrumentation } from '../clients/undici/index.js';
import type { PreloadState } from '../pipeline/preload-state.js';
import type { INSTRUMENTATION_NAMES } from './config.js';

/**
 * One instrumentation per client the issue lists, each wired to the hooks that reach the error.
 * Keyed by every short name in INSTRUMENTATION_NAMES, so a name without a client (or a client
 * without a name) does not compile: a new driver is its folder under clients/, its name there
 * and its line here.
 */
const CLIENTS: Record<(typeof INSTRUMENTATION_NAMES)[number], (state: PreloadState) => Instrumentation> = {
  http: httpInstrumentation,
  undici: undiciInstrumentation,
  pg: pgInstrumentation,
  mysql2: mysql2Instrumentation,
  tedious: tediousInstrumentation,
  ioredis: ioredisInstrumentation,
  'aws-sdk': awsSdkInstrumentation,
  grpc: grpcInstrumentation,
};

export function createInstrumentations(state: PreloadState): Instrumentation[] {
  return [...state.config.instrumentations].flatMap((name) => {
    const client: ((state: PreloadState) => Instrumentation) | undefined =
      CLIENTS[name as keyof typeof CLIENTS];
    return client ? [client(state)] : [];
  });
}
