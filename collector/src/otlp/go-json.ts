/**
 * Go-compatible JSON text, so attribute values stringify byte-for-byte like the OTel Collector's
 * pcommon `Value.AsString()` (which marshals arrays and maps with Go's `encoding/json`): map keys
 * sorted, `<`, `>`, `&`, U+2028 and U+2029 escaped, floats formatted ES6-style, bytes base64.
 */

/** A decoded OTLP AnyValue: the variants pcommon distinguishes. */
export type AnyValue =
  | { t: 'str'; v: string }
  | { t: 'bool'; v: boolean }
  | { t: 'int'; v: string }
  | { t: 'double'; v: number }
  | { t: 'array'; v: AnyValue[] }
  | { t: 'kvlist'; v: Array<[string, AnyValue]> }
  | { t: 'bytes'; v: Uint8Array }
  | { t: 'empty' };

// Go's encoding/json escapes these on top of what JSON.stringify escapes.
const GO_EXTRA_ESCAPES = /[<>&\u2028\u2029]/g;
const GO_ESCAPE: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

export function goJsonString(s: string): string {
  const json = JSON.stringify(s.toWellFormed());
  return GO_EXTRA_ESCAPES.test(json) ? json.replace(GO_EXTRA_ESCAPES, (c) => GO_ESCAPE[c] ?? c) : json;
}

/**
 * pcommon `float64AsString`: ES6 number formatting (what JS `String(n)` does), with Go's wording for
 * the values JSON cannot hold.
 */
export function goFloatString(f: number): string {
  if (Number.isNaN(f)) return 'json: unsupported value: NaN';
  if (f === Number.POSITIVE_INFINITY) return 'json: unsupported value: +Inf';
  if (f === Number.NEGATIVE_INFINITY) return 'json: unsupported value: -Inf';
  return String(f);
}

/** `Value.AsString()` of pcommon. */
export function anyValueToString(value: AnyValue): string {
  switch (value.t) {
    case 'str':
      return value.v;
    case 'bool':
      return value.v ? 'true' : 'false';
    case 'int':
      return value.v;
    case 'double':
      return goFloatString(value.v);
    case 'bytes':
      return Buffer.from(value.v.buffer, value.v.byteOffset, value.v.byteLength).toString('base64');
    case 'empty':
      return '';
    default:
      return anyValueToGoJson(value);
  }
}

/** The Go `encoding/json` text of `AsRaw()`: arrays and maps nest, NaN/Inf make Go fail (→ ""). */
function anyValueToGoJson(value: AnyValue): string {
  try {
    return toJson(value);
  } catch {
    // encoding/json refuses NaN and ±Inf inside containers; AsString then returns "" (the error is dropped).
    return '';
  }
}

function toJson(value: AnyValue): string {
  switch (value.t) {
    case 'str':
      return goJsonString(value.v);
    case 'bool':
      return value.v ? 'true' : 'false';
    case 'int':
      return value.v;
    case 'double':
      if (!Number.isFinite(value.v)) throw new RangeError('unsupported float');
      return String(value.v);
    case 'bytes':
      return `"${Buffer.from(value.v.buffer, value.v.byteOffset, value.v.byteLength).toString('base64')}"`;
    case 'empty':
      return 'null';
    case 'array':
      return `[${value.v.map(toJson).join(',')}]`;
    case 'kvlist': {
      // AsRaw builds a Go map, so a repeated key keeps its last value; Marshal sorts keys.
      const byKey = new Map<string, AnyValue>();
      for (const [k, v] of value.v) byKey.set(k, v);
      const keys = [...byKey.keys()].sort(compareGoStrings);
      return `{${keys.map((k) => `${goJsonString(k)}:${toJson(byKey.get(k)!)}`).join(',')}}`;
    }
  }
}

// Go sorts map keys by bytes (UTF-8); JS `<` compares UTF-16 code units, which differs above U+FFFF.
function compareGoStrings(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
