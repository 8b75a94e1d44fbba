import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * True when the Authorization header carries `Bearer <token>`. Both sides are hashed first so the
 * comparison is constant-time and length-independent (timingSafeEqual needs equal lengths).
 */
export function checkBearer(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const match = /^Bearer[ \t]+(\S+)\s*$/i.exec(header);
  if (!match) return false;
  return timingSafeEqual(digest(match[1]!), digest(token));
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}
