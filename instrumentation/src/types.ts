/**
 * Public types of @faultline/instrumentation. Field names are a contract shared with the
 * collector's `failures` table and the dashboard: see shared DESIGN "The envelope".
 */

/** What a caller should do next; the policy follows from the class alone. */
export type ErrorClass = 'validation' | 'authentication' | 'rate_limit' | 'transient' | 'permanent';

/** Low-cardinality kind of tool that failed. */
export type ErrorSource = 'http' | 'db' | 'sdk' | 'rpc' | 'network' | (string & {});

/** JSON value carried in `raw`: always serializable, redacted and size-capped. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface Envelope {
  class: ErrorClass;
  source: ErrorSource;
  /** Most specific stable code: HTTP status, SQLSTATE, vendor error number or name. */
  code: string;
  /** Human text, redacted and bounded. */
  message: string;
  /** Derived by the adapter from class plus source detail; a server's explicit signal wins. */
  retryable: boolean;
  /** Seconds to wait; a number only when `retryable` is true, else null. */
  retry_after: number | null;
  /** Same id on every span of one request; empty string when unknown. */
  correlation_id: string;
  /** Source detail for offline inspection: redacted, depth- and size-capped. */
  raw: JsonValue;
}

/** The seven fields a model or agent loop needs: the envelope without `raw`. */
export type ModelEnvelope = Omit<Envelope, 'raw'>;

/** Context a caller may pass to a classifier. */
export interface ClassifyContext {
  /** Overrides the inferred source (`http`, `db`, `sdk`, `rpc`, …). */
  source?: string;
  /** OpenTelemetry `db.system.name` value: `postgresql`, `mysql`, `mariadb`, `microsoft.sql_server`, `redis`, `mongodb`. */
  system?: string;
  correlationId?: string;
}

/** Input to classifyHttpResponse. Headers: plain object (any case), a `Headers` instance, or IncomingHttpHeaders. */
export interface HttpResponseLike {
  status: number;
  headers?:
    | HeadersInit
    | Record<string, string | string[] | number | undefined>
    | Headers
    | ReadonlyArray<string | Uint8Array>
    | null;
  /** Parsed JSON, a string, a Buffer/Uint8Array, or nothing. */
  body?: unknown;
}
