import { createHash, timingSafeEqual } from 'node:crypto';

/** SHA-256 of a secret: what the gate keeps and compares, never the secret itself. */
export function secretDigest(secret) {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/**
 * Constant-time check of a presented secret against a kept digest. Hashing first gives two
 * equal-length buffers, as timingSafeEqual needs, so neither the content nor the length leaks.
 */
export function matchesDigest(presented, digest) {
  return timingSafeEqual(secretDigest(presented), digest);
}
