import type { Span } from '@opentelemetry/api';
import type { Envelope } from '../../types.js';
import type { PreloadConfig } from '../sdk/types.js';
import { AttemptTracker } from './attempt-tracker.js';
import { LocalFailures } from './local-failures.js';
import { ResponseRegistry } from './response-registry.js';

/** What the hooks and the span processor share for one started preload. */
export interface PreloadState {
  config: PreloadConfig;
  responses: ResponseRegistry;
  /** Failed attempts per (correlation id, operation): attempt numbers and misrouted retries. */
  attempts: AttemptTracker;
  /**
   * The same tracker, read for its misrouted verdict (`lookup`) by the enforce-mode checks that
   * run before a request is sent (the fetch wrapper).
   */
  misrouted: Pick<AttemptTracker, 'lookup' | 'size'>;
  /** Spans recognised as misrouted retries at start, with the earlier envelope (for enforce mode). */
  repeats: WeakMap<Span, Envelope>;
  /** Local spans below which a span failed, for faultline.propagated. */
  failures: LocalFailures;
}

export function createPreloadState(config: PreloadConfig): PreloadState {
  const attempts = new AttemptTracker();
  return {
    config,
    responses: new ResponseRegistry(),
    attempts,
    misrouted: attempts,
    repeats: new WeakMap(),
    failures: new LocalFailures(),
  };
}
