// The CSRF rule, for every request that runs a query or changes state: all non-GET/HEAD requests
// and every /api/* request whatever its method. The design is the "strict Origin + JSON + SameSite"
// one (as Go 1.25's http.CrossOriginProtection and the OWASP CSRF sheet's "verifying origin with
// standard headers"), not a CSRF token:
//   - Sec-Fetch-Site, when the browser sends it, must be same-origin (or none: typed by the user).
//   - Origin, when present, must be this dashboard's: FAULTLINE_DASHBOARD_PUBLIC_URL's origin, or
//     http(s)://<the Host this request named> (the Host itself having passed the allowed-hosts rule,
//     so this is never an attacker's name).
//   - Every modern browser sends Origin on every POST (fetch, XHR, forms), same-origin ones too; a
//     POST without it is therefore a script, an old browser or a stripping extension. It is refused
//     unless it carries Authorization: Bearer <FAULTLINE_DASHBOARD_TOKEN>, which a browser never
//     attaches by itself (unlike cookies, or the proxy's session behind X-Forwarded-User).
//   - The body must be application/json: a cross-origin page can send text/plain, form-encoded or
//     multipart bodies without asking, but application/json needs a CORS preflight, which this
//     server never grants. The sign-in and sign-out forms (/login, /logout) are the one exception,
//     form-encoded so they work without script; the Origin rule above covers them alone.
// A SameSite=Strict session cookie (session-cookie.mjs) is the second layer: a cross-site request
// does not carry it even if a check above were bypassed.

/**
 * Returns null when the request may proceed, else { status, message } (403 cross-origin, 415
 * wrong body type). `host` is the parsed, allowed Host header.
 */
export function crossOriginProblem(
  headers,
  { unsafe, host, publicOrigin, headerAuthenticated, acceptsForm },
) {
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return { status: 403, message: `refused a ${site} request: the dashboard answers its own pages only` };
  }
  const origin = headers.origin;
  if (origin !== undefined) {
    if (!originMatches(origin, host, publicOrigin)) {
      return {
        status: 403,
        message: `refused a cross-origin request (Origin ${origin}): the dashboard answers its own pages only`,
      };
    }
  } else if (unsafe && !headerAuthenticated) {
    return {
      status: 403,
      message:
        'refused a request without an Origin header. Browsers send one on every POST; scripts send ' +
        'Origin: <the dashboard URL> or, with FAULTLINE_DASHBOARD_TOKEN set, Authorization: Bearer <token>',
    };
  }
  if (unsafe) {
    const type = mediaType(headers['content-type']);
    if (type !== 'application/json' && !(acceptsForm && type === 'application/x-www-form-urlencoded')) {
      return {
        status: 415,
        message: `send Content-Type: application/json${type ? ` (not ${type})` : ''}: other body types can be sent cross-origin without a preflight`,
      };
    }
  }
  return null;
}

/** True when an Origin header names this dashboard: the public URL's origin, or the requested Host's. */
export function originMatches(origin, host, publicOrigin) {
  let url;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes "null" (sandboxed frames, file: pages, cross-origin redirects)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (
    url.username !== '' ||
    url.password !== '' ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    return false;
  }
  if (publicOrigin !== null && url.origin === publicOrigin) return true;
  const defaultPort = url.protocol === 'https:' ? 443 : 80;
  const originPort = url.port === '' ? defaultPort : Number(url.port);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  return hostname === host.hostname && originPort === (host.port ?? defaultPort);
}

/** `application/json; charset=utf-8` → `application/json`; undefined when absent. */
export function mediaType(header) {
  if (typeof header !== 'string') return undefined;
  return header.split(';', 1)[0].trim().toLowerCase() || undefined;
}
