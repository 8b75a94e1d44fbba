/**
 * What a span's attributes say, read in both the old and the stable semantic conventions. Values
 * arrive stringified as the collector stores them (FailedSpanFields): numbers in decimal, string
 * arrays as JSON.
 */
type Attrs = Record<string, string>;

/** gRPC status names, index = numeric code (grpc/doc/statuscodes.md). */
const GRPC_STATUS = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

/**
 * The gRPC status: `rpc.grpc.status_code` (old, an integer) or `rpc.response.status_code` (RPC
 * semconv 1.37+, the status name, e.g. "UNAVAILABLE"); undefined when neither is present.
 */
export function grpcStatusOf(attrs: Attrs): number | undefined {
  const old = attrs['rpc.grpc.status_code'];
  if (old !== undefined && /^\d{1,2}$/.test(old) && Number(old) < GRPC_STATUS.length) return Number(old);
  if (attrs['rpc.system'] !== 'grpc' && attrs['rpc.system.name'] !== 'grpc') return undefined;
  const name = attrs['rpc.response.status_code'];
  if (name === undefined) return undefined;
  const at = GRPC_STATUS.indexOf(name.toUpperCase());
  return at >= 0 ? at : undefined;
}

/**
 * A captured header (`http.request.header.<name>`): the SDKs record a string array, which arrives
 * as JSON ('["abc"]'); some record a plain string. The first value, trimmed; undefined when empty.
 */
export function headerValue(attrs: Attrs, key: string): string | undefined {
  const raw = attrs[key];
  if (raw === undefined) return undefined;
  let value: unknown = raw;
  if (raw.startsWith('[')) {
    try {
      value = (JSON.parse(raw) as unknown[])[0];
    } catch {
      value = raw;
    }
  }
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
