/** `undici`: undici and global fetch spans, with the fetch body tap. */
export { endSpansWaitingOnBodies, installFetchWrapper } from './fetch-peek.js';
export { subscribeUndiciErrors, undiciHooks } from './undici-hooks.js';
