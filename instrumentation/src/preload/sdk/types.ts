import type { Instrumentation } from '@opentelemetry/instrumentation';

/** Options for the programmatic `start()`; every field falls back to its environment variable. */
export interface StartOptions {
  /** `service.name`; default OTEL_SERVICE_NAME, else the resource detectors' value. */
  serviceName?: string;
  /** Base OTLP/HTTP endpoint (`/v1/traces` is appended); default: what the exporter reads from OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318. */
  endpoint?: string;
  /** Full traces URL, used as is; default: the exporter's reading of OTEL_EXPORTER_OTLP_TRACES_ENDPOINT. */
  tracesEndpoint?: string;
  /** Export headers, over those the exporter reads from OTEL_EXPORTER_OTLP_HEADERS and OTEL_EXPORTER_OTLP_TRACES_HEADERS. */
  headers?: Record<string, string>;
  /** `http/protobuf` (default) or `http/json`. */
  protocol?: ExportProtocol;
  /** Inspect small JSON response bodies for error markers; default on (FAULTLINE_BODY_PEEK). */
  bodyPeek?: boolean;
  /** Bytes of a response body copied at most as the application reads it (a declared length above it is not peeked); default 16384 (FAULTLINE_BODY_PEEK_MAX_BYTES). */
  bodyPeekMaxBytes?: number;
  /** Answer a misrouted retry at once with the earlier envelope; default off (FAULTLINE_ENFORCE_MISROUTED). */
  enforceMisrouted?: boolean;
  /**
   * Also export the attributes the Faultline collector derives from the span itself (a correlation
   * id equal to the trace id, a success's source, a root server span's entry mark), for a backend
   * that reads the spans without it; default off (FAULTLINE_EXPORT_DERIVED).
   */
  exportDerived?: boolean;
  /**
   * Instrumentation short names to enable, as OTEL_NODE_ENABLED_INSTRUMENTATIONS takes them (`http`,
   * `undici`, `pg`, `redis`, … and Faultline's own `postgres`, `better-sqlite3`, `nats`, `mqtt`);
   * default the auto-instrumentations' default set and Faultline's own.
   */
  enabledInstrumentations?: string[];
  /** Instrumentation short names to disable. */
  disabledInstrumentations?: string[];
  /** Spans waiting for export; beyond this they are dropped and counted. Default: the SDK's reading of OTEL_BSP_MAX_QUEUE_SIZE, else 2048. */
  maxQueueSize?: number;
  /** Log hook failures and warnings through `diag` at debug level; default FAULTLINE_DEBUG. */
  debug?: boolean;
  /**
   * Under a ratio sampler, export every failed span (and, in a trace the sampler dropped, its
   * local ancestors) whatever the sampler said, weighted so counts stay exact; default on when the
   * ratio is below 1 (FAULTLINE_KEEP_FAILURES). No effect under other samplers.
   */
  keepFailures?: boolean;
}

export type ExportProtocol = 'http/protobuf' | 'http/json';

/** Faultline's own switches: what the hooks and the span processor read. */
export interface FaultlineConfig {
  bodyPeek: boolean;
  bodyPeekMaxBytes: number;
  enforceMisrouted: boolean;
  exportDerived: boolean;
  debug: boolean;
}

/** Every preload option resolved: what start() actually runs with, exporting aside. */
export interface PreloadConfig extends FaultlineConfig {
  disabled: boolean;
  serviceName: string | undefined;
  instrumentations: InstrumentationSelection;
  /** The ratio sampler the preload builds; absent leaves OTEL_TRACES_SAMPLER to the SDK. */
  sampling?: RatioSampling;
  /** The keep-every-failure option (sdk/keep-failures-*.ts); only ever true with `sampling`. */
  keepFailures?: boolean;
}

/**
 * OTEL_TRACES_SAMPLER=traceidratio / parentbased_traceidratio with its OTEL_TRACES_SAMPLER_ARG:
 * built as a consistent probability sampler, so kept spans carry their threshold (`ot=th:…`).
 */
export interface RatioSampling {
  /** `parentbased_traceidratio`: a span with a parent follows it (its threshold, else its flag). */
  parentBased: boolean;
  /** Probability that a root span is kept, in [0, 1]. */
  ratio: number;
}

/** Which instrumentations run: `enabled` undefined means the default set; `disabled` wins. */
export interface InstrumentationSelection {
  enabled: string[] | undefined;
  disabled: string[];
}

/**
 * What start() hands the exporter and the SDK's BatchSpanProcessor. `undefined` leaves a value to
 * their own reading of the environment (OTEL_EXPORTER_OTLP_*, OTEL_BSP_*).
 */
export interface ExportSettings {
  url: string | undefined;
  headers: Record<string, string> | undefined;
  protocol: ExportProtocol;
  maxQueueSize: number | undefined;
  scheduledDelayMillis: number | undefined;
}

/** What NodeSDK's `instrumentations` option takes. */
export type InstrumentationList = (Instrumentation | Instrumentation[])[];
