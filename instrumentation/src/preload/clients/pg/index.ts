/** `pg`: node-postgres spans, with the driver's own error filed against each failed query. */
export { PgErrorInstrumentation } from './pg-errors.js';
