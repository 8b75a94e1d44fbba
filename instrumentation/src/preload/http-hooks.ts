import { errorMonitor } from 'node:events';
import { ClientRequest, IncomingMessage } from 'node:http';
import type { Span } from '@opentelemetry/api';
import type { HttpInstrumentationConfig } from '@opentelemetry/instrumentation-http';
import { ATTR_CORRELATION_ID } from '../attributes.js';
import { classifyError } from '../error/classify-error.js';
import { isPeekable, peekIncomingMessage } from './body-peek.js';
import { MisroutedRetryError } from './misrouted-retry.js';
import type { PreloadState } from './preload-state.js';
import { safely } from './safe.js';
import { attributesOf, setEnvelope } from './span-envelope.js';

/**
 * node:http hooks. The instrumentation exposes the request error only to listeners, so an
 * `errorMonitor` listener (which observes without counting as handling) classifies it before the
 * instrumentation's own listener ends the span.
 */
export function httpHooks(
  state: PreloadState,
): Pick<HttpInstrumentationConfig, 'requestHook' | 'responseHook'> {
  return {
    requestHook(span, request) {
      // Unsampled spans are never exported: classifying for them would be pure overhead.
      if (!span.isRecording() || !(request instanceof ClientRequest)) return;
      safely('http requestHook', () => {
        request.on(errorMonitor, (err: unknown) => safely('http error', () => onClientError(span, err)));
        const earlier = state.config.enforceMisrouted ? state.repeats.get(span) : undefined;
        // Destroying before the socket connects means nothing leaves the process.
        if (earlier) request.destroy(new MisroutedRetryError(earlier));
      });
    },
    responseHook(span, response) {
      if (!span.isRecording() || !(response instanceof IncomingMessage)) return;
      safely('http responseHook', () => {
        const { headers } = response;
        const peek =
          state.config.bodyPeek &&
          isPeekable(headers['content-type'], headers['content-length'], state.config.bodyPeekMaxBytes)
            ? peekIncomingMessage(response, state.config.bodyPeekMaxBytes)
            : undefined;
        const status = response.statusCode ?? 0;
        // A success without a peeked body has nothing to classify: record only what can fail.
        if (status >= 400 || peek) state.responses.set(span, { status, headers, body: peek });
      });
    },
  };
}

function onClientError(span: Span, err: unknown): void {
  if (err instanceof MisroutedRetryError) {
    setEnvelope(span, err.envelope);
    return;
  }
  const correlationId = String(attributesOf(span)[ATTR_CORRELATION_ID] ?? '');
  setEnvelope(span, classifyError(err, { source: 'http', correlationId }));
}
