import type { Span } from '@opentelemetry/api';
import type { Envelope } from '../types.js';
import { MisroutedRetryTracker } from './misrouted-retry.js';
import { ResponseRegistry } from './response-registry.js';
import type { PreloadConfig } from './types.js';

/** What the hooks and the span processor share for one started preload. */
export interface PreloadState {
  config: PreloadConfig;
  responses: ResponseRegistry;
  misrouted: MisroutedRetryTracker;
  /** Spans recognised as misrouted retries at start, with the earlier envelope (for enforce mode). */
  repeats: WeakMap<Span, Envelope>;
}

export function createPreloadState(config: PreloadConfig): PreloadState {
  return {
    config,
    responses: new ResponseRegistry(),
    misrouted: new MisroutedRetryTracker(),
    repeats: new WeakMap(),
  };
}
