/**
 * Property reads that never throw. Thrown values can be Proxies, objects with throwing getters or
 * revoked proxies; the classifier must still answer, so every read of a foreign object goes here.
 */

export type Bag = Record<string | symbol, unknown>;

export function isObjectLike(value: unknown): value is Bag {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

export function read(obj: unknown, key: string): unknown {
  if (!isObjectLike(obj)) return undefined;
  try {
    return obj[key];
  } catch {
    return undefined;
  }
}

export function readString(obj: unknown, key: string): string | undefined {
  const v = read(obj, key);
  return typeof v === 'string' ? v : undefined;
}

export function readNumber(obj: unknown, key: string): number | undefined {
  const v = read(obj, key);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A status in the HTTP range, whether the library stored it as a number or a numeric string. */
export function readHttpStatus(obj: unknown, key: string): number | undefined {
  const v = read(obj, key);
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.length === 3 ? Number(v) : Number.NaN;
  return Number.isInteger(n) && n >= 100 && n <= 599 ? n : undefined;
}

/** `code` as a string: drivers store it as a string (pg, mysql2, Node) or a number (gRPC, MongoDB). */
export function readCode(obj: unknown): string | undefined {
  const v = read(obj, 'code');
  if (typeof v === 'string') return v.length > 0 ? v : undefined;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

/** Constructor name, for libraries whose errors keep `name` as plain "Error". */
export function constructorName(obj: unknown): string | undefined {
  if (!isObjectLike(obj)) return undefined;
  try {
    const ctor = Object.getPrototypeOf(obj)?.constructor;
    return typeof ctor === 'function' && typeof ctor.name === 'string' ? ctor.name : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The error's own name: `name` unless it is the generic "Error" that many SDKs leave in place
 * (OpenAI, Stripe, gaxios, tedious), in which case the constructor's name says more.
 */
export function errorName(obj: unknown): string | undefined {
  const name = readString(obj, 'name');
  if (name !== undefined && name !== 'Error') return name;
  const ctor = constructorName(obj);
  return ctor !== undefined && ctor !== 'Object' ? ctor : name;
}
