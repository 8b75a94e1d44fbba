import {
  type Context,
  propagation,
  type Span,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
  trace,
} from '@opentelemetry/api';
import { W3CBaggagePropagator } from '@opentelemetry/core';
import { ATTR_CORRELATION_ID, BAGGAGE_CORRELATION_ID } from '../../envelope/attribute-names.js';
import { attributesOf } from './span-attributes.js';

/** Inbound headers an edge proxy or caller may already have stamped on the request. */
const INBOUND_HEADERS = ['x-correlation-id', 'x-request-id'] as const;
/** Ids longer than this are someone else's payload, not an id: ignore them. */
const MAX_ID_LENGTH = 128;

/**
 * W3C baggage, plus the correlation id. Extract keeps an upstream preload's baggage entry first
 * (an ingress proxy between two services may add its own x-request-id), else adopts an inbound
 * x-correlation-id / x-request-id. Inject sends the baggage as is: when the id is the trace id,
 * traceparent already carries it, so the downstream preload derives the same value.
 */
export class CorrelationPropagator implements TextMapPropagator {
  private readonly baggage = new W3CBaggagePropagator();

  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    this.baggage.inject(context, carrier, setter);
  }

  extract(context: Context, carrier: unknown, getter: TextMapGetter): Context {
    const extracted = this.baggage.extract(context, carrier, getter);
    const bag = propagation.getBaggage(extracted);
    if (bag?.getEntry(BAGGAGE_CORRELATION_ID)) return extracted;
    for (const name of INBOUND_HEADERS) {
      const value = firstHeader(getter.get(carrier, name));
      if (value && value.length <= MAX_ID_LENGTH) {
        const next = (bag ?? propagation.createBaggage()).setEntry(BAGGAGE_CORRELATION_ID, { value });
        return propagation.setBaggage(extracted, next);
      }
    }
    return extracted;
  }

  fields(): string[] {
    return this.baggage.fields();
  }
}

/** The request's correlation id: the baggage entry, else the trace id of the active span. */
export function correlationIdOf(context: Context): string | undefined {
  const fromBaggage = propagation.getBaggage(context)?.getEntry(BAGGAGE_CORRELATION_ID)?.value;
  if (fromBaggage) return fromBaggage;
  const spanContext = trace.getSpanContext(context);
  return spanContext && trace.isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim() || undefined;
}

/**
 * The correlation id of a span the preload started: its attribute when the id is not the trace id
 * (only then is it set: the collector derives the rest, derived-attributes.ts), else the trace id.
 */
export function correlationIdOfSpan(span: Span): string {
  const id = attributesOf(span)[ATTR_CORRELATION_ID];
  return typeof id === 'string' ? id : span.spanContext().traceId;
}
