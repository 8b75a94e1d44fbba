import { ATTR_SOURCE } from '../envelope/attribute-names.js';
import { dbSystemOf } from '../envelope/db-system.js';
import { failingHttpStatusOf } from '../envelope/http-status-of.js';
import { sourceOf } from '../envelope/span-source.js';
import type { Envelope } from '../types.js';
import { classifyHttpResponse } from './classify-http-response.js';

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
