import { ATTR_SOURCE } from './attributes.js';
import { dbSystemOf } from './db-system.js';
import { classifyHttpResponse } from './http/classify-http-response.js';
import { httpStatusOf, sourceOf } from './span-source.js';
import type { Envelope } from './types.js';

/**
 * The span's HTTP status when it alone says the span failed (4xx/5xx), else undefined: the rule
 * the preload applies to a server span and the collector to rebuild its envelope.
 */
export function failingHttpStatusOf(attrs: Readonly<Record<string, unknown>>): number | undefined {
  const status = httpStatusOf(attrs);
  return status !== undefined && status >= 400 ? status : undefined;
}

/**
 * The envelope of a span that failed by its HTTP status alone (no response a hook could read, no
 * headers, no body): what the preload gives a server span that answered 4xx/5xx, rebuilt the same
 * way by the collector, which is why the preload need not send it (derived-attributes.ts).
 * Null below 400.
 */
export function httpStatusEnvelope(
  attrs: Readonly<Record<string, unknown>>,
  correlationId: string,
  source: string | undefined = (attrs[ATTR_SOURCE] as string | undefined) ?? sourceOf(attrs),
): Envelope | null {
  const status = failingHttpStatusOf(attrs);
  if (status === undefined) return null;
  return classifyHttpResponse({ status }, { source, correlationId, system: dbSystemOf(attrs) });
}
