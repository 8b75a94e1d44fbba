import { ATTR_CORRELATION_ID, ATTR_ENTRY, ATTR_SOURCE } from './attributes.js';
import { sourceOf } from './span-source.js';

/**
 * Resource attribute (semconv `telemetry.distro.name`) the preload exports under: it tells the
 * collector which spans left their derivable attributes off the wire.
 */
export const DISTRO_NAME_KEY = 'telemetry.distro.name';
export const DISTRO_NAME = 'faultline';

/** What of a span the derivation reads besides its attributes. */
export interface DerivableSpan {
  traceId: string;
  /** '' for a root span. */
  parentSpanId: string;
  kind: 'server' | 'client' | 'other';
}

/**
 * The preload attributes that follow from the span itself, which the preload therefore does not
 * export and the collector puts back before anything reads the row: a correlation id equal to the
 * trace id, the `source` of a client span that its semconv attributes imply, and the entry mark of
 * a root server span. Only absent keys are returned, with the values the preload would have set;
 * where the preload decided otherwise it exported its answer (a baggage correlation id, an
 * envelope's source, `faultline.entry=false`), which wins.
 */
export function derivedAttributes(
  attrs: Readonly<Record<string, unknown>>,
  span: DerivableSpan,
): [key: string, value: string | true][] {
  const out: [string, string | true][] = [];
  if (attrs[ATTR_CORRELATION_ID] === undefined) out.push([ATTR_CORRELATION_ID, span.traceId]);
  if (span.kind === 'client') {
    if (attrs[ATTR_SOURCE] === undefined) {
      const source = sourceOf(attrs);
      if (source !== undefined) out.push([ATTR_SOURCE, source]);
    }
  } else if (span.kind === 'server' && span.parentSpanId === '' && attrs[ATTR_ENTRY] === undefined) {
    out.push([ATTR_ENTRY, true]);
  }
  return out;
}
