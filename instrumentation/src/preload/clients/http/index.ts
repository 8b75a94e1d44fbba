/** `http`: node:http / node:https spans, with the response hooks and the incoming body peek. */
export { httpHooks } from './http-hooks.js';
