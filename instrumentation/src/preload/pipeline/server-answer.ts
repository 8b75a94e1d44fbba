import type { ServerResponse } from 'node:http';
import type { Span } from '@opentelemetry/api';
import type { ResponseRegistry } from './response-registry.js';

/** On the server span itself, as span-marks.ts keeps per-span state: no WeakMap insert per request. */
const RESPONSE = Symbol('faultline.serverResponse');

interface WithResponse {
  [RESPONSE]?: ServerResponse;
}

/** The response a server span's request is answered with (the http response hook hands it over). */
export function noteServerResponse(span: Span, response: ServerResponse): void {
  (span as WithResponse)[RESPONSE] = response;
}

/**
 * A failing answer this service sent with a Retry-After (its own 429 or 503, or a framework's
 * answer to an error carrying one) is recorded for the span's envelope, which then says when to
 * come back; any other answer costs one read here and is classified by its status alone.
 */
export function recordServerAnswer(span: Span, responses: ResponseRegistry): void {
  const response = (span as WithResponse)[RESPONSE];
  if (response === undefined) return;
  (span as WithResponse)[RESPONSE] = undefined;
  const status = response.statusCode;
  if (status < 400) return;
  const retryAfter = response.getHeader('retry-after');
  if (retryAfter === undefined) return;
  responses.set(span, { status, headers: { 'retry-after': String(retryAfter) } });
}
