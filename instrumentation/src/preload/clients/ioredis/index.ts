import type { Instrumentation } from '@opentelemetry/instrumentation';
import { IORedisErrorInstrumentation } from './ioredis-errors.js';

export { IORedisErrorInstrumentation };

/** `ioredis`: Redis spans, with the reply error filed against each failed command. */
export function ioredisInstrumentation(): Instrumentation {
  return new IORedisErrorInstrumentation();
}
