/** `ioredis`: Redis spans, with the reply error filed against each failed command. */
export { IORedisErrorInstrumentation } from './ioredis-errors.js';
