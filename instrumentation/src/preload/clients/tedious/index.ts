import type { Instrumentation } from '@opentelemetry/instrumentation';
import { TediousErrorInstrumentation } from './tedious-errors.js';

export { TediousErrorInstrumentation };

/** `tedious`: SQL Server spans, with the driver's own error filed against each failed request. */
export function tediousInstrumentation(): Instrumentation {
  return new TediousErrorInstrumentation();
}
