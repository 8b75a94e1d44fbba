import { isSecretKey, REDACTED, redactText } from '../redact/redact-text.js';
import type { JsonValue } from '../types.js';

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

/** A string already redacted by the caller (the message), so the walk does not scan it twice. */
export interface KnownText {
  text: string;
  redacted: string;
  /**
   * `redacted` is redactText of the whole `text`, reused only where boundedText would redact the
   * whole string too (`text.length <= max * 4`), so a bound cut short by the budget still gets
   * exactly the bytes boundedText gives. Unset: `redacted` is redactedHead(text, maxStringChars),
   * reused at any bound.
   */
  strict?: boolean;
}

/** A strict KnownText for `text`: its redaction, to share between the message and raw. */
export function knownText(text: string): KnownText {
  return { text, redacted: redactText(text), strict: true };
}

interface Walk {
  budget: number;
  known: KnownText | undefined;
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
  return truncate(redactedHead(text, max), max);
}

/** Redacts the first `max * 4` characters: enough to truncate to `max` after redaction shortens it. */
export function redactedHead(text: string, max: number): string {
  return redactText(text.length > max * 4 ? text.slice(0, max * 4) : text);
}

/**
 * A JSON-safe, redacted, depth- and size-capped copy of any value, for the envelope's `raw`.
 * Never throws: hostile inputs (throwing getters, proxies, cycles, BigInt, Symbols, Buffers)
 * become descriptive strings instead of errors, because raw is built while a failure is being
 * reported and must not become a second failure.
 */
export function toRaw(value: unknown, known?: KnownText): JsonValue {
  try {
    return copy(value, { budget: RAW_LIMITS.maxChars, known, stack: [] }, 0);
  } catch {
    return '[Unserializable]';
  }
}

function copy(value: unknown, walk: Walk, depth: number): JsonValue {
  if (walk.budget <= 0) return TRUNCATED;
  switch (typeof value) {
    case 'string': {
      const max = Math.min(RAW_LIMITS.maxStringChars, Math.max(walk.budget, 16));
      const k = walk.known;
      const s =
        k !== undefined && k.text === value && (k.strict !== true || value.length <= max * 4)
          ? truncate(k.redacted, max)
          : boundedText(value, max);
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

/** Whether `obj` is one of its own ancestors; the stack is at most maxDepth long, so a plain loop beats includes(). */
function onStack(stack: unknown[], obj: object): boolean {
  for (let i = 0; i < stack.length; i++) if (stack[i] === obj) return true;
  return false;
}

function copyObject(obj: object, walk: Walk, depth: number): JsonValue {
  if (onStack(walk.stack, obj)) return '[Circular]';
  if (depth >= RAW_LIMITS.maxDepth) return '[MaxDepth]';
  // A throw below abandons the whole walk (toRaw catches it), so the stack needs no finally.
  // Parsed JSON is plain objects and arrays: copy them without probing for special types.
  const proto = Object.getPrototypeOf(obj);
  if (proto === Object.prototype || proto === null) {
    walk.stack.push(obj);
    const out = copyPlain(obj, walk, depth);
    walk.stack.pop();
    return out;
  }
  if (proto === Array.prototype && Array.isArray(obj)) {
    walk.stack.push(obj);
    const out = copyList(obj, walk, depth);
    walk.stack.pop();
    return out;
  }
  if (ArrayBuffer.isView(obj)) return `[${obj.constructor?.name ?? 'Bytes'} ${obj.byteLength} bytes]`;
  if (obj instanceof ArrayBuffer) return `[ArrayBuffer ${obj.byteLength} bytes]`;
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? 'Invalid Date' : obj.toISOString();
  if (obj instanceof RegExp) return truncate(String(obj), 128);
  walk.stack.push(obj);
  const out = copySpecial(obj, walk, depth);
  walk.stack.pop();
  return out;
}

function copySpecial(obj: object, walk: Walk, depth: number): JsonValue {
  if (Array.isArray(obj)) return copyList(obj, walk, depth);
  if (obj instanceof Set) return copyList([...obj], walk, depth);
  if (obj instanceof Map) return copyMap(obj, walk, depth);
  if (obj instanceof Error) return copyError(obj, walk, depth);
  const toJSON = read(obj, 'toJSON');
  if (typeof toJSON === 'function') {
    let json: unknown;
    try {
      json = toJSON.call(obj);
    } catch {
      json = '[Throws]';
    }
    if (json !== obj) return copy(json, walk, depth + 1);
  }
  return copyPlain(obj, walk, depth);
}

function copyPlain(obj: object, walk: Walk, depth: number): JsonValue {
  const out: { [key: string]: JsonValue } = {};
  walk.budget -= 2;
  let keys: string[];
  try {
    keys = Object.keys(obj);
  } catch {
    return '[Unserializable]';
  }
  let i = 0;
  for (const key of keys) if (!put(out, i++, key, read(obj, key), walk, depth)) break;
  return out;
}

/** Reads a property; a throwing getter or proxy trap becomes a marker string. */
function read(obj: object, key: string): unknown {
  try {
    return (obj as Record<string, unknown>)[key];
  } catch {
    return '[Throws]';
  }
}

/** Adds one entry within the key and size budget; returns false once the object is full. */
function put(
  out: { [key: string]: JsonValue },
  index: number,
  key: string,
  value: unknown,
  walk: Walk,
  depth: number,
): boolean {
  if (walk.budget <= 0 || index >= RAW_LIMITS.maxObjectKeys) {
    out['…'] = TRUNCATED;
    return false;
  }
  const k = key.length > 128 ? truncate(key, 128) : key;
  walk.budget -= k.length + 3;
  if (isSecretKey(key)) {
    out[k] = REDACTED;
    walk.budget -= 12;
  } else out[k] = copy(value, walk, depth + 1);
  return true;
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
    out.push(copy(read(items, i as unknown as string), walk, depth + 1));
  }
  if (items.length > n) out.push(`[…${items.length - n} more]`);
  return out;
}

function copyMap(map: Map<unknown, unknown>, walk: Walk, depth: number): JsonValue {
  const out: { [key: string]: JsonValue } = {};
  walk.budget -= 2;
  let i = 0;
  for (const [key, value] of map) {
    if (!put(out, i++, typeof key === 'string' ? key : safeString(key), value, walk, depth)) break;
  }
  return out;
}

/** Errors keep their non-enumerable name, message and cause, plus own fields such as `code`. */
function copyError(err: Error, walk: Walk, depth: number): JsonValue {
  const out: { [key: string]: JsonValue } = {};
  walk.budget -= 2;
  let i = 0;
  put(out, i++, 'name', read(err, 'name'), walk, depth);
  put(out, i++, 'message', read(err, 'message'), walk, depth);
  let keys: string[] = [];
  try {
    keys = Object.keys(err);
  } catch {
    // a proxy that refuses ownKeys: name and message are enough
  }
  for (const key of keys) {
    if (key === 'name' || key === 'message' || key === 'stack' || key === 'cause') continue;
    if (!put(out, i++, key, read(err, key), walk, depth)) return out;
  }
  if ('errors' in err && !keys.includes('errors')) put(out, i++, 'errors', read(err, 'errors'), walk, depth);
  if ('cause' in err) put(out, i, 'cause', read(err, 'cause'), walk, depth);
  return out;
}

function safeString(value: unknown): string {
  try {
    return String(value);
  } catch {
    return '[Unprintable]';
  }
}
