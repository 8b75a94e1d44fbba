import diagnosticsChannel from 'node:diagnostics_channel';
import { diag, type Span } from '@opentelemetry/api';
import type { UndiciInstrumentationConfig, UndiciRequest } from '@opentelemetry/instrumentation-undici';
import { classifyError } from '../../../error/classify-error.js';
import { correlationIdOfSpan } from '../../pipeline/correlation.js';
import type { PreloadState } from '../../pipeline/preload-state.js';
import { setEnvelope } from '../../pipeline/span-envelope.js';
import { isPeekableRaw } from '../../shared/body-peek.js';
import { safely } from '../../shared/safe.js';
import { adoptFetchSlot, deferEndForBody, fetchSlotOf } from './fetch-peek.js';

const spans = new WeakMap<object, Span>();

/**
 * fetch/undici hooks. The error object only travels on the `undici:request:error` diagnostics
 * channel; subscribing before the instrumentation does means this runs while its span is open.
 * Call before registering the undici instrumentation.
 */
export function subscribeUndiciErrors(): () => void {
  const onError = (message: unknown): void => {
    safely('undici error', () => {
      const { request, error } = message as { request: object; error: { name?: string } };
      const span = spans.get(request);
      if (!span || error?.name === 'AbortError') return;
      const correlationId = correlationIdOfSpan(span);
      setEnvelope(span, classifyError(error, { source: 'http', correlationId }));
    });
  };
  diagnosticsChannel.subscribe('undici:request:error', onError);
  return () => diagnosticsChannel.unsubscribe('undici:request:error', onError);
}

export function undiciHooks(
  state: PreloadState,
): Pick<UndiciInstrumentationConfig, 'requestHook' | 'responseHook'> {
  const { bodyPeek, bodyPeekMaxBytes } = state.config;
  return {
    requestHook(span, request) {
      if (!span.isRecording()) return;
      try {
        spans.set(request, span);
        adoptFetchSlot(request);
      } catch (err) {
        diag.warn('faultline: undici requestHook failed', err);
      }
    },
    responseHook(span, { request, response }) {
      if (!span.isRecording()) return;
      try {
        const status = response.statusCode;
        const slot = fetchSlotOf(request);
        // A redirect's body is never the application's: fetch follows it under the same slot,
        // and the final response is the one to peek.
        const peek =
          slot !== undefined &&
          !slot.wantsBody &&
          bodyPeek &&
          (status < 300 || status >= 400) &&
          isPeekableRaw(response.headers, bodyPeekMaxBytes, false);
        // Successes that are not peeked have nothing to classify: no header record for them.
        if (status < 400 && !peek) return;
        state.responses.set(span, {
          status,
          headers: headersFrom(response.headers),
          body: peek && slot ? deferEndForBody(span, slot, status < 400) : undefined,
        });
      } catch (err) {
        diag.warn('faultline: undici responseHook failed', err);
      }
    },
  };
}

/** undici hands raw `[name, value, …]` buffers; the classifier wants a plain lower-cased record. */
function headersFrom(raw: readonly (Buffer | string)[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = String(raw[i]).toLowerCase();
    const value = String(raw[i + 1]);
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  return out;
}

export type { UndiciRequest };
