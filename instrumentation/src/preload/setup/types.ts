import type { TextMapPropagator } from '@opentelemetry/api';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import type { Sampler, SpanProcessor } from '@opentelemetry/sdk-trace-base';
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
  /**
   * Under the ratio sampler `sampler` builds, still export every failed call (and its path to the
   * root) through `exportProcessor`; default on below ratio 1 (FAULTLINE_KEEP_FAILURES).
   */
  keepFailures?: boolean;
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
  /**
   * The sampler OTEL_TRACES_SAMPLER asks for when it is a ratio one (traceidratio,
   * parentbased_traceidratio), built as the preload builds it: consistent probability sampling that
   * writes `ot=th` (so every stored span says what it stands for) and, with the counts or
   * keepFailures on, records the spans it drops so they are counted and their failures kept. Also
   * the SDK's default when the counts need an unsampled upstream's spans recorded. Undefined for
   * any other sampler: pass your own. `sampler: fl.sampler ?? yours`.
   */
  readonly sampler: Sampler | undefined;
  /**
   * Your exporting processor, wrapped so that with keepFailures on every failed span (and the local
   * spans on its way to the root) is exported whatever the sampler decided, marked with weight 1
   * (or 0 for the path), and the rest as the sampler decided. Returns it unchanged otherwise.
   */
  exportProcessor(next: SpanProcessor): SpanProcessor;
}
