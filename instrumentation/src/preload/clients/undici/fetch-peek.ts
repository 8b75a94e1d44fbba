import { performance } from 'node:perf_hooks';
import { context, createContextKey, diag, type Span, SpanKind, type Tracer, trace } from '@opentelemetry/api';
import { scopedKey } from '../../pipeline/agent-context.js';
import { correlationIdOf } from '../../pipeline/correlation.js';
import { MisroutedRetryError, operationKey } from '../../pipeline/misrouted-retry.js';
import type { PreloadState } from '../../pipeline/preload-state.js';
import { setEnvelope } from '../../pipeline/span-envelope.js';
import { BodyCopy } from '../../shared/body-copy.js';
import { safely } from '../../shared/safe.js';
import { tapFetchBody } from './fetch-body-tap.js';

/**
 * Longest a span end waits for the application to read its body: undici ends the span when the
 * last byte reaches it, which is before the application could read any of it. Unref'd, so it
 * never holds the process.
 */
const BODY_WAIT_MS = 2000;
const SLOT = createContextKey('faultline.fetch-slot');

/** Links one fetch() call to the undici span(s) it produced. */
export interface FetchSlot {
  /** Set by the undici response hook when the final response's body is to be peeked. */
  wantsBody: boolean;
  /** The bytes the application has read so far, bounded. */
  copy?: BodyCopy;
  /** The application finished with the body (or will not): the span may end. */
  delivered: boolean;
  onDelivered?: () => void;
}

const slotsByRequest = new WeakMap<object, FetchSlot>();
/** Spans whose end waits on a body, delivered before a natural exit so none is lost. */
const waiting = new Set<FetchSlot>();

/** Called from the undici request hook, which runs in the fetch() caller's async context. */
export function adoptFetchSlot(request: object): void {
  const slot = context.active().getValue(SLOT) as FetchSlot | undefined;
  if (slot) slotsByRequest.set(request, slot);
}

export function fetchSlotOf(request: object): FetchSlot | undefined {
  return slotsByRequest.get(request);
}

/**
 * Holds the span's end (with its original timestamp) until the application has read the body
 * through the tap, so the copy is complete when the span processor classifies it. A body left
 * unread ends the span after BODY_WAIT_MS, or at the latest before the process exits.
 */
export function deferEndForBody(span: Span, slot: FetchSlot, success: boolean): () => unknown {
  slot.wantsBody = true;
  const end = span.end.bind(span);
  span.end = (endTime) => {
    const at = endTime ?? performance.now();
    if (slot.delivered) return end(at);
    const timer = setTimeout(() => deliver(slot), BODY_WAIT_MS);
    timer.unref();
    waiting.add(slot);
    slot.onDelivered = () => {
      clearTimeout(timer);
      waiting.delete(slot);
      end(at);
    };
  };
  return () => slot.copy?.json(success);
}

/**
 * Ends every span still waiting on an unread body, so an exit flush (a signal, or the end of the
 * event loop) exports it: the process is leaving and the application will not read it now.
 */
export function endSpansWaitingOnBodies(): void {
  for (const slot of waiting) deliver(slot);
}

function deliver(slot: FetchSlot): void {
  if (slot.delivered) return;
  slot.delivered = true;
  slot.onDelivered?.();
}

/** Copies what the application reads of the body; past the bound the span need not wait. */
function peekBody(response: Response, slot: FetchSlot, maxBytes: number): void {
  const copy = new BodyCopy(maxBytes);
  slot.copy = copy;
  const tapped = tapFetchBody(response, {
    chunk: (bytes) => {
      copy.add(bytes);
      if (!copy.open) deliver(slot);
    },
    done: () => deliver(slot),
  });
  if (!tapped) deliver(slot);
}

/**
 * Wraps global fetch to tap JSON bodies as the application reads them (silent-failure detection)
 * and, in enforce mode, to refuse a misrouted retry before anything leaves the process.
 */
export function installFetchWrapper(state: PreloadState, tracer: Tracer): () => void {
  const original = globalThis.fetch;
  if (typeof original !== 'function') return () => {};
  const maxBytes = state.config.bodyPeekMaxBytes;
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
            try {
              peekBody(response, slot, maxBytes);
            } catch (err) {
              diag.warn('faultline: fetch peek failed', err);
              deliver(slot);
            }
          }
          return response;
        },
        (err: unknown) => {
          deliver(slot);
          throw err;
        },
      );
  };
  globalThis.fetch = wrapped;
  // Registered before the exit flush's own listener (start() installs this first), so the
  // spans still waiting on an unread body end in time to be flushed.
  process.on('beforeExit', endSpansWaitingOnBodies);
  return () => {
    process.removeListener('beforeExit', endSpansWaitingOnBodies);
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
  const key = scopedKey(operationKey(attributes), trace.getSpan(context.active()));
  const earlier = key ? state.misrouted.lookup(correlationId, key) : undefined;
  if (!earlier) return undefined;
  const span = tracer.startSpan(method, { kind: SpanKind.CLIENT, attributes });
  setEnvelope(span, earlier);
  span.end();
  return new MisroutedRetryError(earlier);
}
