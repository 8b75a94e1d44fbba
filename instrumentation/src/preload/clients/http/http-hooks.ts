import { EventEmitter, errorMonitor } from 'node:events';
import { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { diag, type Span } from '@opentelemetry/api';
import type { HttpInstrumentationConfig } from '@opentelemetry/instrumentation-http';
import { classifyError } from '../../../error/classify-error.js';
import { correlationIdOfSpan } from '../../pipeline/correlation.js';
import { MisroutedRetryError } from '../../pipeline/misrouted-retry.js';
import type { PreloadState } from '../../pipeline/preload-state.js';
import { noteServerResponse } from '../../pipeline/server-answer.js';
import { setEnvelope } from '../../pipeline/span-envelope.js';
import { isPeekableRaw } from '../../shared/body-peek.js';
import { peekIncomingMessage } from './incoming-peek.js';

const addListener = EventEmitter.prototype.on;

/**
 * The span of each outgoing request, for the one shared error listener below: on the request
 * itself under a symbol (every instrumented request has it, so they keep one shape), which costs
 * less per request than a WeakMap insert.
 */
const SPAN = Symbol('faultline.span');
type WithSpan = ClientRequest & { [SPAN]?: Span };

/**
 * node:http hooks. The instrumentation exposes the request error only to listeners, so an
 * `errorMonitor` listener (which observes without counting as handling) classifies it before the
 * instrumentation's own listener ends the span. Hooks run for every request: they use try/catch
 * and one shared listener rather than closures allocated per call.
 */
export function httpHooks(
  state: PreloadState,
): Pick<HttpInstrumentationConfig, 'requestHook' | 'responseHook'> {
  const { bodyPeek, bodyPeekMaxBytes, enforceMisrouted } = state.config;
  return {
    requestHook(span, request) {
      // Unsampled spans are never exported: classifying for them would be pure overhead.
      if (!(request instanceof ClientRequest) || !span.isRecording()) return;
      try {
        (request as WithSpan)[SPAN] = span;
        // EventEmitter's own `on`, not the instance's: the instrumentation has bound the request to
        // its context, which would wrap this listener in a fresh closure on every request, and the
        // listener needs no context (its span comes from the map).
        addListener.call(request, errorMonitor, onClientError);
        const earlier = enforceMisrouted ? state.repeats.get(span) : undefined;
        // Destroying before the socket connects means nothing leaves the process.
        if (earlier) request.destroy(new MisroutedRetryError(earlier));
      } catch (err) {
        diag.warn('faultline: http requestHook failed', err);
      }
    },
    responseHook(span, response) {
      if (!(response instanceof IncomingMessage)) {
        // Called as the request arrives, before the handler answers: kept for the span's end.
        if (response instanceof ServerResponse) noteServerResponse(span, response);
        return;
      }
      if (!span.isRecording()) return;
      try {
        const status = response.statusCode ?? 0;
        // From the raw list: `response.headers` is built on first read, and only a failure needs it.
        // node:http hands the application the bytes as sent: a compressed body is not JSON to us.
        const peekable = bodyPeek && isPeekableRaw(response.rawHeaders, bodyPeekMaxBytes, true);
        if (status >= 400) {
          const body = peekable ? peekIncomingMessage(response, bodyPeekMaxBytes) : undefined;
          state.responses.set(span, { status, headers: response.headers, body });
        } else if (peekable) {
          // A success is recorded only if its body, once read, may say it failed (`"ok": false`).
          peekIncomingMessage(response, bodyPeekMaxBytes, (body) =>
            state.responses.set(span, { status, headers: response.headers, body: () => body }),
          );
        }
      } catch (err) {
        diag.warn('faultline: http responseHook failed', err);
      }
    },
  };
}

function onClientError(this: ClientRequest, err: unknown): void {
  try {
    const span = (this as WithSpan)[SPAN];
    if (!span) return;
    if (err instanceof MisroutedRetryError) {
      setEnvelope(span, err.envelope);
      return;
    }
    const correlationId = correlationIdOfSpan(span);
    setEnvelope(span, classifyError(err, { source: 'http', correlationId }));
  } catch (e) {
    diag.warn('faultline: http error hook failed', e);
  }
}
