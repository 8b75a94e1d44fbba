/** Span kind names as the exporter's `traceutil.SpanKindStr` writes them. */
const SPAN_KINDS = ['Unspecified', 'Internal', 'Server', 'Client', 'Producer', 'Consumer'] as const;
/** Status code names as `traceutil.StatusCodeStr` writes them. */
const STATUS_CODES = ['Unset', 'Ok', 'Error'] as const;

const SPAN_KIND_ENUM: Record<string, number> = {
  SPAN_KIND_UNSPECIFIED: 0,
  SPAN_KIND_INTERNAL: 1,
  SPAN_KIND_SERVER: 2,
  SPAN_KIND_CLIENT: 3,
  SPAN_KIND_PRODUCER: 4,
  SPAN_KIND_CONSUMER: 5,
};
const STATUS_CODE_ENUM: Record<string, number> = {
  STATUS_CODE_UNSET: 0,
  STATUS_CODE_OK: 1,
  STATUS_CODE_ERROR: 2,
};

// pdata prints unknown enum values as an empty string.
export function spanKindName(kind: number): string {
  return SPAN_KINDS[kind] ?? '';
}

export function statusCodeName(code: number): string {
  return STATUS_CODES[code] ?? '';
}

/** JSON enum value: an int or the proto enum name; undefined when neither. */
export function spanKindFromJson(value: unknown): number | undefined {
  return enumFromJson(value, SPAN_KIND_ENUM);
}

export function statusCodeFromJson(value: unknown): number | undefined {
  return enumFromJson(value, STATUS_CODE_ENUM);
}

function enumFromJson(value: unknown, names: Record<string, number>): number | undefined {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string') return Object.hasOwn(names, value) ? names[value] : undefined;
  return undefined;
}
