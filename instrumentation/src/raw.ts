import { isSecretKey, REDACTED, redactText } from './redact.js';
import type { JsonValue } from './types.js';

/**
 * Limits of `raw`. An envelope rides on every failing span, so its detail must stay small
 * enough to store per span and safe enough to show anyone who can read traces.
 */
export const RAW_LIMITS = Object.freeze({
  /** Approximate serialized size budget of one `raw` value, in characters. */
  maxChars: 4096,
  maxDepth: 6,
  maxStringChars: 1024,
  maxArrayItems: 50,
  maxObjectKeys: 50,
});

interface Walk {
  budget: number;
  /** Ancestors of the value being copied: a repeat here is a cycle, a repeat elsewhere is fine. */
  stack: unknown[];
}

const TRUNCATED = '[Truncated]';

/** Cuts text to `max` characters, marking the cut so readers know it is partial. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Redacts then bounds a string; redaction runs on a prefix so huge strings cost little. */
export function boundedText(text: string, max: number): string {
  const head = text.length > max * 4 ? text.slice(0, max * 4) : text;
  return truncate(redactText(head), max);
}

/**
 * A JSON-safe, redacted, depth- and size-capped copy of any value, for the envelope's `raw`.
 * Never throws: hostile inputs (throwing getters, proxies, cycles, BigInt, Symbols, Buffers)
 * become descriptive strings instead of errors, because raw is built while a failure is being
 * reported and must not become a second failure.
 */
export function toRaw(value: unknown): JsonValue {
  try {
    return copy(value, { budget: RAW_LIMITS.maxChars, stack: [] }, 0);
  } catch {
    return '[Unserializable]';
  }
}

function copy(value: unknown, walk: Walk, depth: number): JsonValue {
  if (walk.budget <= 0) return TRUNCATED;
  switch (typeof value) {
    case 'string': {
      const s = boundedText(value, Math.min(RAW_LIMITS.maxStringChars, Math.max(walk.budget, 16)));
      walk.budget -= s.length + 2;
      return s;
    }
    case 'number':
      walk.budget -= 8;
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
      walk.budget -= 5;
      return value;
    case 'bigint':
      walk.budget -= 20;
      return value.toString();
    case 'symbol':
      walk.budget -= 20;
      return truncate(value.toString(), 64);
    case 'function':
      walk.budget -= 20;
      return `[Function ${truncate(value.name || 'anonymous', 64)}]`;
    case 'undefined':
      walk.budget -= 4;
      return null;
  }
  if (value === null) {
    walk.budget -= 4;
    return null;
  }
  return copyObject(value as object, walk, depth);
}

function copyObject(obj: object, walk: Walk, depth: number): JsonValue {
  if (walk.stack.includes(obj)) return '[Circular]';
  if (depth >= RAW_LIMITS.maxDepth) return '[MaxDepth]';
  if (ArrayBuffer.isView(obj)) return `[${obj.constructor?.name ?? 'Bytes'} ${obj.byteLength} bytes]`;
  if (obj instanceof ArrayBuffer) return `[ArrayBuffer ${obj.byteLength} bytes]`;
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? 'Invalid Date' : obj.toISOString();
  if (obj instanceof RegExp) return truncate(String(obj), 128);
  walk.stack.push(obj);
  try {
    if (Array.isArray(obj)) return copyList(obj, walk, depth);
    if (obj instanceof Set) return copyList([...obj], walk, depth);
    if (obj instanceof Map) return copyEntries(mapEntries(obj), walk, depth);
    if (obj instanceof Error) return copyEntries(errorEntries(obj), walk, depth);
    const toJSON = (obj as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      const json = safe(() => toJSON.call(obj));
      if (json !== obj) return copy(json, walk, depth + 1);
    }
    return copyEntries(objectEntries(obj), walk, depth);
  } finally {
    walk.stack.pop();
  }
}

function copyList(items: readonly unknown[], walk: Walk, depth: number): JsonValue {
  const out: JsonValue[] = [];
  walk.budget -= 2;
  const n = Math.min(items.length, RAW_LIMITS.maxArrayItems);
  for (let i = 0; i < n; i++) {
    if (walk.budget <= 0) {
      out.push(`[…${items.length - i} more]`);
      return out;
    }
    out.push(
      copy(
        safe(() => items[i]),
        walk,
        depth + 1,
      ),
    );
  }
  if (items.length > n) out.push(`[…${items.length - n} more]`);
  return out;
}

function copyEntries(entries: Iterable<[string, () => unknown]>, walk: Walk, depth: number): JsonValue {
  const out: { [key: string]: JsonValue } = {};
  walk.budget -= 2;
  let count = 0;
  for (const [key, read] of entries) {
    if (count === RAW_LIMITS.maxObjectKeys || walk.budget <= 0) {
      out['…'] = TRUNCATED;
      break;
    }
    count++;
    const k = truncate(key, 128);
    walk.budget -= k.length + 3;
    out[k] = isSecretKey(key) ? REDACTED : copy(safe(read), walk, depth + 1);
  }
  return out;
}

/** Calls a reader; a throwing getter or proxy trap becomes a marker string. */
function safe(read: () => unknown): unknown {
  try {
    return read();
  } catch {
    return '[Throws]';
  }
}

function* objectEntries(obj: object): Iterable<[string, () => unknown]> {
  let keys: string[];
  try {
    keys = Object.keys(obj);
  } catch {
    return;
  }
  for (const key of keys) yield [key, () => (obj as Record<string, unknown>)[key]];
}

function* mapEntries(map: Map<unknown, unknown>): Iterable<[string, () => unknown]> {
  for (const [key, value] of map) yield [typeof key === 'string' ? key : safeString(key), () => value];
}

/** Errors keep their non-enumerable name, message and cause, plus own fields such as `code`. */
function* errorEntries(err: Error): Iterable<[string, () => unknown]> {
  yield ['name', () => err.name];
  yield ['message', () => err.message];
  for (const entry of objectEntries(err)) {
    if (entry[0] !== 'name' && entry[0] !== 'message' && entry[0] !== 'stack' && entry[0] !== 'cause')
      yield entry;
  }
  if ('errors' in err && !Object.keys(err).includes('errors')) yield ['errors', () => err.errors];
  if ('cause' in err) yield ['cause', () => err.cause];
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '[Unprintable]';
  }
}
