import type { Instrumentation } from '@opentelemetry/instrumentation';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import type { PreloadState } from '../../pipeline/preload-state.js';
import { undiciHooks } from './undici-hooks.js';

export { endSpansWaitingOnBodies, installFetchWrapper } from './fetch-peek.js';
export { subscribeUndiciErrors, undiciHooks } from './undici-hooks.js';

/** `undici`: undici and global fetch spans, with the fetch body tap. */
export function undiciInstrumentation(state: PreloadState): Instrumentation {
  return new UndiciInstrumentation(undiciHooks(state));
}
