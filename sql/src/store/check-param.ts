import { QueryParamError } from './query-param-error.js';

const INT_RANGES: Record<string, [bigint, bigint]> = {
  UInt8: [0n, 255n],
  UInt16: [0n, 65_535n],
  UInt32: [0n, 4_294_967_295n],
  UInt64: [0n, 18_446_744_073_709_551_615n],
  Int8: [-128n, 127n],
  Int16: [-32_768n, 32_767n],
  Int32: [-2_147_483_648n, 2_147_483_647n],
  Int64: [-9_223_372_036_854_775_808n, 9_223_372_036_854_775_807n],
};

const DATE_TEXT = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;
const UNIX_TEXT = /^\d{1,12}(\.\d{1,9})?$/;

/** Splits `Array(Tuple(a, b))`-style type arguments on top-level commas. */
function unwrap(type: string, wrapper: string): string | undefined {
  const prefix = `${wrapper}(`;
  return type.startsWith(prefix) && type.endsWith(')') ? type.slice(prefix.length, -1).trim() : undefined;
}

function fail(name: string, type: string, value: unknown, hint: string): never {
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 80)) : String(value);
  throw new QueryParamError(`parameter ${name} (${type}) got ${shown}: ${hint}`);
}

/** Date-like values become unix seconds, which ClickHouse parses the same in any server time zone. */
function toUnixSeconds(name: string, type: string, value: unknown): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) fail(name, type, value, 'an invalid Date');
    return (value.getTime() / 1000).toFixed(3);
  }
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return String(value);
  if (typeof value === 'string') {
    if (UNIX_TEXT.test(value)) return value;
    if (DATE_TEXT.test(value)) {
      const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(value);
      const ms = Date.parse(hasZone ? value : `${value.replace(' ', 'T')}Z`);
      if (!Number.isNaN(ms)) return (ms / 1000).toFixed(3);
    }
  }
  return fail(
    name,
    type,
    value,
    'pass a Date, unix seconds, or an ISO-8601 time such as 2026-01-31T12:00:00Z',
  );
}

/**
 * Validates one parameter value against its declared ClickHouse type and returns the value to bind.
 * Types the checker does not know pass through as strings for ClickHouse to parse.
 */
export function checkParam(name: string, type: string, value: unknown): unknown {
  const nullable = unwrap(type, 'Nullable');
  if (nullable !== undefined) return value === null ? null : checkParam(name, nullable, value);
  if (value === null || value === undefined) {
    return fail(name, type, value, 'a value is required (declare the parameter Nullable(...) to allow null)');
  }
  const lowCard = unwrap(type, 'LowCardinality');
  if (lowCard !== undefined) return checkParam(name, lowCard, value);
  const element = unwrap(type, 'Array');
  if (element !== undefined) {
    if (!Array.isArray(value)) return fail(name, type, value, 'expected an array');
    // Inside an array the client quotes strings ('300'), which ClickHouse will not read as a
    // number: integers go as bigint, written bare and exact.
    const integers = INT_RANGES[element] !== undefined;
    return value.map((v, i) => {
      const checked = checkParam(`${name}[${i}]`, element, v);
      return integers ? BigInt(checked as string) : checked;
    });
  }
  if (type === 'String' || type === 'UUID' || type.startsWith('FixedString(')) {
    if (typeof value !== 'string') return fail(name, type, value, 'expected a string');
    return value;
  }
  if (type === 'Bool') {
    if (typeof value !== 'boolean') return fail(name, type, value, 'expected true or false');
    return value;
  }
  const range = INT_RANGES[type];
  if (range) {
    const text = typeof value === 'bigint' || typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !/^-?\d+$/.test(text))
      return fail(name, type, value, 'expected an integer');
    const n = BigInt(text);
    if (n < range[0] || n > range[1]) return fail(name, type, value, `out of range ${range[0]}..${range[1]}`);
    return text;
  }
  if (type === 'Float32' || type === 'Float64' || type.startsWith('Decimal')) {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isFinite(n))
      return fail(name, type, value, 'expected a finite number');
    return n;
  }
  if (
    type === 'Date' ||
    type === 'DateTime' ||
    type.startsWith('DateTime(') ||
    type.startsWith('DateTime64')
  ) {
    const seconds = toUnixSeconds(name, type, value);
    if (type === 'Date') return new Date(Number(seconds) * 1000).toISOString().slice(0, 10);
    // DateTime parses whole unix seconds only; DateTime64 keeps the fraction.
    return type.startsWith('DateTime64') ? seconds : String(Math.floor(Number(seconds)));
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return fail(name, type, value, 'expected a string, number or boolean');
}
