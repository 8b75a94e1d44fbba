/** `fastify`: a route handler's error, from Fastify's own diagnostics channel, on the server span. */
export { subscribeFastifyErrors } from './handler-errors.js';
