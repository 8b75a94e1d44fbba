import type { Instrumentation } from '@opentelemetry/instrumentation';
import { EsmAwareGrpcInstrumentation } from './grpc-esm.js';

export { EsmAwareGrpcInstrumentation };

/** `grpc`: @grpc/grpc-js client and server spans, with the call's error captured (CJS and ESM). */
export function grpcInstrumentation(): Instrumentation {
  return new EsmAwareGrpcInstrumentation();
}
