import type { Instrumentation } from '@opentelemetry/instrumentation';
import { MySQL2Instrumentation } from '@opentelemetry/instrumentation-mysql2';

export { subscribeDriverErrors } from './driver-errors.js';

/** `mysql2`: mysql2 (MySQL, MariaDB) spans; the driver's error arrives on its tracing channels. */
export function mysql2Instrumentation(): Instrumentation {
  return new MySQL2Instrumentation();
}
