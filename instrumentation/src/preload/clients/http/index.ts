import type { Instrumentation } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import type { PreloadState } from '../../pipeline/preload-state.js';
import { httpHooks } from './http-hooks.js';

export { httpHooks };

/** `http`: node:http / node:https spans, with the response hooks and the incoming body peek. */
export function httpInstrumentation(state: PreloadState): Instrumentation {
  return new HttpInstrumentation(httpHooks(state));
}
