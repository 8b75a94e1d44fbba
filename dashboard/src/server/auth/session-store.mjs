import { createHash, randomBytes } from 'node:crypto';

/**
 * Sign-in sessions, in memory: a restart signs everyone out, and sign-out revokes at once (a
 * signed stateless cookie could not be revoked). Sessions are found by the SHA-256 of their id,
 * so the map never holds a usable cookie value. Bounded: past `maxSessions` the oldest go first.
 */
export function createSessionStore({ ttlMs, maxSessions = 10_000, now = Date.now }) {
  const sessions = new Map(); // sha256(id) → { user, expiresAt }
  const key = (id) => createHash('sha256').update(id).digest('base64url');

  function sweep() {
    const t = now();
    for (const [k, s] of sessions) if (s.expiresAt <= t) sessions.delete(k);
    // Map iteration is insertion order: the first keys are the oldest sessions.
    for (const k of sessions.keys()) {
      if (sessions.size < maxSessions) break;
      sessions.delete(k);
    }
  }

  return {
    /** A new session for `user`: { id (the cookie value), expiresAt }. */
    create(user) {
      if (sessions.size >= maxSessions) sweep();
      const id = randomBytes(32).toString('base64url');
      const expiresAt = now() + ttlMs;
      sessions.set(key(id), { user, expiresAt });
      return { id, expiresAt };
    },
    /** The live session for a cookie value, or undefined. */
    lookup(id) {
      if (typeof id !== 'string' || id.length === 0 || id.length > 128) return undefined;
      const k = key(id);
      const s = sessions.get(k);
      if (s === undefined) return undefined;
      if (s.expiresAt <= now()) {
        sessions.delete(k);
        return undefined;
      }
      return s;
    },
    revoke(id) {
      if (typeof id === 'string') sessions.delete(key(id));
    },
    get size() {
      return sessions.size;
    },
  };
}
