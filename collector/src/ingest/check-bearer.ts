import { createHash, timingSafeEqual } from 'node:crypto';

// The one constant-time secret comparison: the collector's ingest token (HTTP, gRPC, /metrics,
// /healthz details, the alerts role) and the dashboard's sign-in token. It imports node:crypto
// only, so the dashboard reads it through `@faultline/collector/secret`, a separate entry that
// loads nothing else of the collector (no chDB, gRPC or prom-client).

/** SHA-256 of a secret: what a gate keeps and compares, never the secret itself. */
export function secretDigest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/**
 * Constant-time check of a presented secret against a kept digest. Hashing first gives two
 * equal-length buffers, as timingSafeEqual needs, so neither the content nor the length leaks.
 */
export function matchesDigest(presented: string, digest: Buffer): boolean {
  return timingSafeEqual(secretDigest(presented), digest);
}

/** True when the Authorization header carries `Bearer <token>`, compared in constant time. */
export function checkBearer(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(header);
  if (!match) return false;
  return matchesDigest(match[1]!, secretDigest(token));
}
