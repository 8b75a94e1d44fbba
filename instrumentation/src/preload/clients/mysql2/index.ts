/**
 * `mysql2`: mysql2 (MySQL, MariaDB) spans come from the stock instrumentation as it is; the
 * driver's error arrives on mysql2's own tracing channels.
 */
export { subscribeDriverErrors } from './driver-errors.js';
