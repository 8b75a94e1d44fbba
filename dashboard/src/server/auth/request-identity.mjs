import { matchesDigest } from '@faultline/collector/secret';
import { readCookie } from './session-cookie.mjs';
import { isTrustedAddress } from './trusted-proxies.mjs';

// Who sent a request, from the first of: the authenticating proxy's header (only from a trusted
// proxy address), Authorization: Bearer <FAULTLINE_DASHBOARD_TOKEN>, the session cookie.

const PROXY_USER = /^[^\p{Cc},]{1,256}$/u;
const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Returns { user, via: 'proxy' | 'bearer' | 'session', sessionId? }, null (anonymous), or
 * { refusal: { status, message, headers? } } for a spoofed proxy header or a wrong token.
 * `remote` is the TCP peer's address: the trusted-proxy check never reads a forwarded header.
 */
export function identifyRequest(req, { config, sessions, throttle, cookieName }, remote) {
  if (config.proxy !== null) {
    const forwarded = req.headers['x-forwarded-user'] ?? req.headers['x-forwarded-email'];
    if (forwarded !== undefined) {
      if (!isTrustedAddress(config.proxy, remote)) {
        return {
          refusal: {
            status: 403,
            message: `refused X-Forwarded-User / X-Forwarded-Email from ${remote}, which is not in FAULTLINE_DASHBOARD_TRUSTED_PROXIES: only the authenticating proxy may send them`,
          },
        };
      }
      const user = String(forwarded).trim();
      if (!PROXY_USER.test(user)) {
        return {
          refusal: {
            status: 400,
            message: 'the proxy sent a malformed X-Forwarded-User / X-Forwarded-Email',
          },
        };
      }
      return { user, via: 'proxy' };
    }
  }
  const bearer = config.login?.kind === 'token' ? BEARER.exec(req.headers.authorization ?? '') : null;
  if (bearer !== null) {
    const wait = throttle.retryAfterS(remote);
    if (wait > 0) {
      return {
        refusal: {
          status: 429,
          message: `too many wrong tokens: retry in ${wait} s`,
          headers: { 'retry-after': String(wait) },
        },
      };
    }
    if (matchesDigest(bearer[1], config.login.digest)) return { user: 'token', via: 'bearer' };
    throttle.failed(remote);
    return {
      refusal: {
        status: 401,
        message: 'wrong token in Authorization: Bearer',
        headers: { 'www-authenticate': 'Bearer realm="faultline", error="invalid_token"' },
      },
    };
  }
  if (config.login !== null) {
    const id = readCookie(req.headers.cookie, cookieName);
    const session = id === undefined ? undefined : sessions.lookup(id);
    if (session !== undefined) return { user: session.user, via: 'session', sessionId: id };
  }
  return null;
}
