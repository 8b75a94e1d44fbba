/**
 * Arguments as a key: JSON with object keys sorted at every depth, so `{ a, b }` and `{ b, a }` are
 * one call. Cycles and values JSON cannot hold become markers; never throws.
 */
export function stableJson(value: unknown): string {
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return typeof v === 'bigint' ? String(v) : v;
    if (seen.has(v)) return '[Circular]';
    seen.add(v);
    if (Array.isArray(v)) return v.map(walk);
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = walk((v as Record<string, unknown>)[k]);
    return out;
  };
  try {
    return JSON.stringify(walk(value)) ?? '';
  } catch {
    return '';
  }
}
