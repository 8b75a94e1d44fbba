import { performance } from 'node:perf_hooks';
import { context, createContextKey, type Span, SpanKind, type Tracer } from '@opentelemetry/api';
import { mayCarryError, parseJson } from './body-peek.js';
import { correlationIdOf } from './correlation.js';
import { MisroutedRetryError, operationKey } from './misrouted-retry.js';
import type { PreloadState } from './preload-state.js';
import { safely } from './safe.js';
import { setEnvelope } from './span-envelope.js';

/** Longest a span end waits for its peeked body; the timer is unref'd so it never holds the process. */
const BODY_WAIT_MS = 2000;
const SLOT = createContextKey('faultline.fetch-slot');

/** Links one fetch() call to the undici span(s) it produced. */
export interface FetchSlot {
  body?: unknown;
  delivered: boolean;
  wantsBody: boolean;
  onDelivered?: () => void;
}

const slotsByRequest = new WeakMap<object, FetchSlot>();

/** Called from the undici request hook, which runs in the fetch() caller's async context. */
export function adoptFetchSlot(request: object): void {
  const slot = context.active().getValue(SLOT) as FetchSlot | undefined;
  if (slot) slotsByRequest.set(request, slot);
}

export function fetchSlotOf(request: object): FetchSlot | undefined {
  return slotsByRequest.get(request);
}

/**
 * undici ends the span as soon as the last byte arrives, before anyone could read a clone of the
 * body. For a peeked response the end is held (with its original timestamp) until the wrapper
 * has read the clone, so the envelope lands on an open span.
 */
export function deferEndForBody(span: Span, slot: FetchSlot): () => unknown {
  slot.wantsBody = true;
  const end = span.end.bind(span);
  span.end = (endTime) => {
    const at = endTime ?? performance.now();
    if (slot.delivered) return end(at);
    const timer = setTimeout(() => deliver(slot, undefined), BODY_WAIT_MS);
    timer.unref();
    slot.onDelivered = () => {
      clearTimeout(timer);
      end(at);
    };
  };
  return () => slot.body;
}

function deliver(slot: FetchSlot, body: unknown): void {
  if (slot.delivered) return;
  slot.delivered = true;
  slot.body = body;
  slot.onDelivered?.();
}

/**
 * Wraps global fetch to tee small JSON bodies (Response.clone) for silent-failure detection and,
 * in enforce mode, to refuse a misrouted retry before anything leaves the process.
 */
export function installFetchWrapper(state: PreloadState, tracer: Tracer): () => void {
  const original = globalThis.fetch;
  if (typeof original !== 'function') return () => {};
  const wrapped: typeof fetch = function fetch(input, init) {
    const refused = state.config.enforceMisrouted
      ? safely('fetch enforce', () => refuse(state, tracer, input, init))
      : undefined;
    if (refused) return Promise.reject(refused);
    const slot: FetchSlot = { delivered: false, wantsBody: false };
    return context
      .with(context.active().setValue(SLOT, slot), () => original(input, init))
      .then(
        (response) => {
          if (slot.wantsBody) {
            safely('fetch peek', () =>
              response
                .clone()
                .text()
                .then(
                  (text) => deliver(slot, mayCarryError(text) ? parseJson(text) : undefined),
                  () => deliver(slot, undefined),
                ),
            );
          }
          return response;
        },
        (err: unknown) => {
          deliver(slot, undefined);
          throw err;
        },
      );
  };
  globalThis.fetch = wrapped;
  return () => {
    if (globalThis.fetch === wrapped) globalThis.fetch = original;
  };
}

/** A refused repeat still gets its span, so the dashboard sees the misrouted retry. */
function refuse(
  state: PreloadState,
  tracer: Tracer,
  input: Parameters<typeof fetch>[0],
  init: Parameters<typeof fetch>[1],
): MisroutedRetryError | undefined {
  const correlationId = correlationIdOf(context.active());
  if (!correlationId) return undefined;
  const isRequest = typeof input === 'object' && 'method' in input;
  const url = new URL(isRequest ? input.url : String(input)).href;
  const method = (init?.method ?? (isRequest ? input.method : 'GET')).toUpperCase();
  const attributes = { 'http.request.method': method, 'url.full': url };
  const key = operationKey(attributes);
  const earlier = key ? state.misrouted.lookup(correlationId, key) : undefined;
  if (!earlier) return undefined;
  const span = tracer.startSpan(method, { kind: SpanKind.CLIENT, attributes });
  setEnvelope(span, earlier);
  span.end();
  return new MisroutedRetryError(earlier);
}
