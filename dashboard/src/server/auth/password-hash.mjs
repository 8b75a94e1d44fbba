import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// Users-file passwords are kept as scrypt hashes (node:crypto, no dependency):
//   scrypt$<N>$<r>$<p>$<salt, base64url>$<derived key, base64url>
// N = 2^15, r = 8, p = 1 costs 32 MiB and tens of milliseconds per check: slow enough against
// guessing from a stolen file, cheap enough for one sign-in.

/** The parameters new hashes get. */
export const SCRYPT_DEFAULTS = Object.freeze({ N: 2 ** 15, r: 8, p: 1 });

const KEY_BYTES = 32;
// What a hash from a file may ask for: bounded so that a hostile file cannot make a sign-in
// allocate gigabytes or spin for minutes.
const MAX_MEMORY = 256 * 1024 * 1024;

/** Reads `scrypt$N$r$p$salt$key`; throws an Error saying what is wrong (never quoting the hash). */
export function parsePasswordHash(text) {
  const parts = String(text).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    throw new Error(
      'is not scrypt$<N>$<r>$<p>$<salt>$<key> (make one with `node scripts/start.mjs --hash-password`)',
    );
  }
  const [N, r, p] = parts.slice(1, 4).map((s) => (/^\d{1,8}$/.test(s) ? Number(s) : Number.NaN));
  if (!(N >= 2 ** 14 && N <= 2 ** 20 && (N & (N - 1)) === 0))
    throw new Error('N must be a power of two from 2^14 to 2^20');
  if (!(r >= 1 && r <= 32)) throw new Error('r must be 1 to 32');
  if (!(p >= 1 && p <= 16)) throw new Error('p must be 1 to 16');
  if (128 * N * r > MAX_MEMORY) throw new Error('N × r asks for more than 256 MiB');
  const salt = Buffer.from(parts[4], 'base64url');
  const key = Buffer.from(parts[5], 'base64url');
  if (salt.length < 16) throw new Error('the salt must be at least 16 bytes');
  if (key.length < 32 || key.length > 64) throw new Error('the key must be 32 to 64 bytes');
  return { N, r, p, salt, key };
}

/** A new hash of `password` in the users-file format. */
export async function hashPassword(password, params = SCRYPT_DEFAULTS) {
  const salt = randomBytes(16);
  const key = await derive(password, salt, KEY_BYTES, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** True when `password` derives `hash.key`; compared in constant time. */
export async function verifyPassword(password, hash) {
  const key = await derive(password, hash.salt, hash.key.length, hash);
  return timingSafeEqual(key, hash.key);
}

/**
 * Stands in for a user the file does not hold, so that an unknown name costs the same scrypt run
 * as a known one and sign-in timing does not tell which names exist.
 */
export function decoyHash() {
  return { ...SCRYPT_DEFAULTS, salt: randomBytes(16), key: randomBytes(KEY_BYTES) };
}

function derive(password, salt, length, { N, r, p }) {
  // The async form runs on libuv's pool: a sign-in does not stall the pages being served.
  return new Promise((resolve, reject) => {
    scrypt(password, salt, length, { N, r, p, maxmem: 2 * 128 * N * r + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}
