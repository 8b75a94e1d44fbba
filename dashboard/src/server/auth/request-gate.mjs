import { isAllowedHost, parseHostHeader } from './allowed-hosts.mjs';
import { crossOriginProblem } from './cross-origin.mjs';
import { refuse, seeOther, sendHtml, setPassHeaders } from './gate-responses.mjs';
import { LOGIN_PAGE_CSP, renderReloadPage } from './login-page.mjs';
import { serveLoginRoute } from './login-route.mjs';
import { createLoginThrottle } from './login-throttle.mjs';
import { identifyRequest } from './request-identity.mjs';
import { sessionCookieName } from './session-cookie.mjs';
import { createSessionStore } from './session-store.mjs';
import { normalizeAddress } from './trusted-proxies.mjs';

// The one gate in front of every request the dashboard serves (pages, /api/*, /_next/static and
// everything else Next answers), run by scripts/start.mjs before Next's handler. It sits in the
// custom server rather than in Next middleware because only the server sees the TCP peer's
// address, which the trusted-proxy rule needs, and because it covers every path alike. In order:
//   1. Host must be one the dashboard answers to (allowed-hosts.mjs: DNS rebinding), always.
//   2. Who: proxy header from a trusted address, bearer token, or session (request-identity.mjs).
//   3. Requests that run queries or change state pass the CSRF rule (cross-origin.mjs).
//   4. /login and /logout are answered here (login-route.mjs).
//   5. With an auth mode configured, anonymous requests are sent to /login (pages) or get 401.

/** Returns `gate(req, res, next)`: answers the request itself or calls `next()` (Next's handler). */
export function createRequestGate(config, { now = Date.now } = {}) {
  const ctx = {
    config,
    sessions: createSessionStore({ ttlMs: config.sessionTtlMs, now }),
    throttle: createLoginThrottle({ now }),
    cookieName: sessionCookieName(config.secureCookies),
  };
  return function gate(req, res, next) {
    decide(req, res, ctx).then(
      (pass) => {
        if (pass) next();
      },
      (err) => {
        console.error(`faultline: dashboard request gate failed: ${err?.message ?? err}`);
        if (res.headersSent) res.destroy();
        else refuse(req, res, 500, 'the dashboard failed to check this request; see its log', { json: true });
      },
    );
  };
}

/** True when the request goes on to Next; otherwise it has been answered. */
async function decide(req, res, ctx) {
  const { config } = ctx;
  const target = req.url ?? '';
  const unsafe = req.method !== 'GET' && req.method !== 'HEAD';
  if (!target.startsWith('/')) {
    refuse(req, res, 400, 'the request target must be a path', { json: unsafe });
    return false;
  }
  const path = target.split('?', 1)[0];
  const api = isApiPath(path);
  const json = api || unsafe;

  const host = parseHostHeader(req.headers.host);
  if (!isAllowedHost(host, config.allowedHosts)) {
    refuse(req, res, 403, hostRefusal(req.headers.host), { json });
    return false;
  }
  const remote = normalizeAddress(req.socket.remoteAddress);
  const who = identifyRequest(req, ctx, remote);
  if (who?.refusal !== undefined) {
    refuse(req, res, who.refusal.status, who.refusal.message, { json, headers: who.refusal.headers });
    return false;
  }
  const loginRoute = config.login !== null && (path === '/login' || path === '/logout');
  if (unsafe || api) {
    const problem = crossOriginProblem(req.headers, {
      unsafe,
      host,
      publicOrigin: config.publicOrigin,
      headerAuthenticated: who?.via === 'bearer',
      acceptsForm: loginRoute,
    });
    if (problem !== null) {
      refuse(req, res, problem.status, problem.message, { json });
      return false;
    }
  }
  if (loginRoute) {
    await serveLoginRoute(req, res, { ...ctx, who, remote, path });
    return false;
  }
  if ((config.login !== null || config.proxy !== null) && who === null) {
    unauthenticated(req, res, config, target, json);
    return false;
  }
  setPassHeaders(res);
  return true;
}

function unauthenticated(req, res, config, target, json) {
  if (!json && config.login !== null) {
    const crossSiteVisit =
      req.headers['sec-fetch-site'] === 'cross-site' && req.headers['sec-fetch-mode'] === 'navigate';
    if (crossSiteVisit) return sendHtml(res, 200, renderReloadPage(target), LOGIN_PAGE_CSP);
    return seeOther(res, `/login?next=${encodeURIComponent(target)}`);
  }
  if (config.login === null) {
    return refuse(req, res, 401, 'not signed in: reach the dashboard through its authenticating proxy', {
      json,
    });
  }
  const message =
    config.login.kind === 'token'
      ? 'not signed in: sign in at /login, or send Authorization: Bearer <FAULTLINE_DASHBOARD_TOKEN>'
      : 'not signed in: sign in at /login';
  const headers = config.login.kind === 'token' ? { 'www-authenticate': 'Bearer realm="faultline"' } : {};
  return refuse(req, res, 401, message, { json, headers });
}

/**
 * /api/* whatever the spelling Next might normalize (case, repeated slashes, %-escapes): the
 * rule must not be dodged by writing the path differently.
 */
function isApiPath(path) {
  let p = path;
  try {
    p = decodeURIComponent(path);
  } catch {
    return true; // undecodable: treat as the strictest kind
  }
  p = p.toLowerCase().replace(/[/\\]+/g, '/');
  return p === '/api' || p.startsWith('/api/');
}

function hostRefusal(host) {
  const named = host === undefined ? 'a request without a Host header' : `Host ${String(host).slice(0, 100)}`;
  return (
    `refused ${named}: not a name this dashboard answers to (a DNS-rebinding guard). ` +
    'Add it to FAULTLINE_DASHBOARD_ALLOWED_HOSTS or set FAULTLINE_DASHBOARD_PUBLIC_URL'
  );
}
