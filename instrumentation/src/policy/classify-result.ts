import { classifyHttpResponse } from '../http/classify-http-response.js';
import type { ClassifyContext, Envelope } from '../types.js';

interface FetchLikeResponse {
  status?: number;
  statusCode?: number;
  headers: unknown;
  clone?: () => { text: () => Promise<string> };
  bodyUsed?: boolean;
}

/** A value that looks like an HTTP response: a numeric status (fetch) or statusCode (node:http) plus headers. */
export function isResponseLike(value: unknown): value is FetchLikeResponse {
  if (value === null || typeof value !== 'object') return false;
  const v = value as { status?: unknown; statusCode?: unknown; headers?: unknown };
  return (typeof v.status === 'number' || typeof v.statusCode === 'number') && v.headers !== undefined;
}

/**
 * Classifies a Response-like result. A failing fetch Response's body is read from a clone (the
 * caller can still read the original), because the body often holds the real answer (an
 * exhausted quota on a 429). A 2xx is classified from its headers only: reading every
 * successful body would cost more than the silent failures it could catch.
 */
export async function classifyResult(
  result: FetchLikeResponse,
  ctx?: ClassifyContext,
): Promise<Envelope | null> {
  const status = (typeof result.status === 'number' ? result.status : result.statusCode) as number;
  let body: unknown;
  if (status >= 400 && typeof result.clone === 'function' && result.bodyUsed !== true) {
    try {
      body = await result.clone().text();
    } catch {
      body = undefined; // an unreadable body still leaves status and headers to classify
    }
  }
  return classifyHttpResponse({ status, headers: result.headers as Headers, body }, ctx);
}

/** Releases a discarded response's connection instead of waiting for garbage collection. */
export async function discard(result: unknown): Promise<void> {
  const body = (result as { body?: { cancel?: () => Promise<void> } } | null)?.body;
  if (body && typeof body.cancel === 'function' && (result as { bodyUsed?: boolean }).bodyUsed !== true) {
    await body.cancel().catch(() => undefined);
  }
}
