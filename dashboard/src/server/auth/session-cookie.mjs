// The session cookie: HttpOnly (page script never reads it), SameSite=Strict (no cross-site
// request carries it, the CSRF rule's second layer), Path=/, and Secure with the __Host- prefix
// when the dashboard is served over https (FAULTLINE_DASHBOARD_PUBLIC_URL https://…), which also
// stops a sibling subdomain from setting or shadowing it.

/** The cookie's name for this configuration. */
export function sessionCookieName(secure) {
  return secure ? '__Host-faultline_session' : 'faultline_session';
}

/** Set-Cookie for a new session. */
export function sessionCookie(name, value, { maxAgeS, secure }) {
  return `${name}=${value}; Path=/; Max-Age=${maxAgeS}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** Set-Cookie that removes the session cookie. */
export function clearedSessionCookie(name, secure) {
  return sessionCookie(name, '', { maxAgeS: 0, secure });
}

/** The first value of cookie `name` in a Cookie header, or undefined. */
export function readCookie(header, name) {
  if (typeof header !== 'string') return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}
