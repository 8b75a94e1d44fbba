import type { TextMapPropagator } from '@opentelemetry/api';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { InstrumentationList } from '../sdk/types.js';

export type { InstrumentationList };

/** Options of `faultline()`; each falls back to its FAULTLINE_* variable, as in the preload. */
export interface FaultlineOptions {
  /** Inspect small JSON response bodies for error markers; default on (FAULTLINE_BODY_PEEK). */
  bodyPeek?: boolean;
  /** Bytes of a response body copied at most as the application reads it; default 16384 (FAULTLINE_BODY_PEEK_MAX_BYTES). */
  bodyPeekMaxBytes?: number;
  /** Answer a misrouted retry at once with the earlier envelope; default off (FAULTLINE_ENFORCE_MISROUTED). */
  enforceMisrouted?: boolean;
  /**
   * Export the attributes the Faultline collector would otherwise derive (a correlation id equal
   * to the trace id, a success's source, the entry mark). Default on here: the collector derives
   * them only for spans whose resource carries the preload's distro mark, and your SDK's resource
   * does not.
   */
  exportDerived?: boolean;
}

/** Faultline's parts for an OpenTelemetry SDK the application builds itself. */
export interface Faultline {
  /**
   * Classifies failures into envelope attributes while spans are still writable. Put it first in
   * NodeSDK's `spanProcessors`, before the processor that exports.
   */
  readonly spanProcessor: SpanProcessor;
  /**
   * W3C trace context and baggage, plus an inbound `x-correlation-id` / `x-request-id` adopted as
   * the correlation id. Optional: without it the correlation id is the trace id.
   */
  readonly propagator: TextMapPropagator;
  /**
   * The same list with Faultline's hooks: the http, undici, aws-sdk, pg, tedious, ioredis and grpc
   * instrumentations are rebuilt with your configuration (your hooks run beside Faultline's), the
   * others are returned as they are. Call before `sdk.start()`.
   */
  instrumentations(list: InstrumentationList): Instrumentation[];
}
