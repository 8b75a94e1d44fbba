import type { Instrumentation } from '@opentelemetry/instrumentation';
import { PgErrorInstrumentation } from './pg-errors.js';

export { PgErrorInstrumentation };

/** `pg`: node-postgres spans, with the driver's own error filed against each failed query. */
export function pgInstrumentation(): Instrumentation {
  return new PgErrorInstrumentation();
}
