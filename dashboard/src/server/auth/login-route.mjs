import { matchesDigest } from '@faultline/collector/secret';
import { mediaType } from './cross-origin.mjs';
import { refuse, seeOther, sendHtml, sendJson } from './gate-responses.mjs';
import { LOGIN_PAGE_CSP, renderLoginPage } from './login-page.mjs';
import { decoyHash, verifyPassword } from './password-hash.mjs';
import { clearedSessionCookie, sessionCookie } from './session-cookie.mjs';

// GET /login (the form), POST /login (form-encoded from the page, or JSON from a script) and
// POST /logout. The gate has already checked Host, Origin and the body type of the POSTs.

const MAX_BODY_BYTES = 8 * 1024;
let decoy;

/** Serves /login or /logout; `ctx` carries the gate's state plus this request's `who`, `remote`, `path`. */
export async function serveLoginRoute(req, res, ctx) {
  const { config, sessions, throttle, cookieName, who, remote, path } = ctx;
  const cookieOptions = { maxAgeS: Math.floor(config.sessionTtlMs / 1000), secure: config.secureCookies };
  const target = req.url ?? '';
  const query = new URLSearchParams(target.includes('?') ? target.slice(target.indexOf('?') + 1) : '');
  const json = mediaType(req.headers['content-type']) === 'application/json';

  if (path === '/logout') {
    if (req.method !== 'POST')
      return refuse(req, res, 405, 'sign out with POST /logout', { json, headers: { allow: 'POST' } });
    req.resume();
    if (who?.sessionId !== undefined) sessions.revoke(who.sessionId);
    const cleared = { 'set-cookie': clearedSessionCookie(cookieName, config.secureCookies) };
    return json ? sendJson(res, 200, { signedOut: true }, cleared) : seeOther(res, '/login', cleared);
  }
  if (req.method === 'GET' || req.method === 'HEAD') {
    const page = renderLoginPage({
      kind: config.login.kind,
      next: safeNextPath(query.get('next')),
      signedInAs: who?.user ?? null,
    });
    return sendHtml(res, 200, page, LOGIN_PAGE_CSP);
  }
  if (req.method !== 'POST')
    return refuse(req, res, 405, 'GET /login shows the form; POST /login signs in', {
      json,
      headers: { allow: 'GET, HEAD, POST' },
    });

  const wait = throttle.retryAfterS(remote);
  if (wait > 0) {
    return refuse(req, res, 429, `too many failed sign-ins from this address: retry in ${wait} s`, {
      json,
      headers: { 'retry-after': String(wait) },
    });
  }
  let fields;
  try {
    fields = parseFields(await readBody(req, MAX_BODY_BYTES), json);
  } catch (err) {
    return refuse(req, res, err.status ?? 400, err.message, { json });
  }
  const next = safeNextPath(fields.next);
  const user = await checkCredentials(config.login, fields);
  if (user === null) {
    throttle.failed(remote);
    const message = config.login.kind === 'token' ? 'Wrong access token.' : 'Wrong user or password.';
    if (json) return sendJson(res, 401, { error: message });
    return sendHtml(res, 401, renderLoginPage({ kind: config.login.kind, next, message }), LOGIN_PAGE_CSP);
  }
  throttle.succeeded(remote);
  // A fresh id at every sign-in: a cookie planted before it (session fixation) is worth nothing.
  if (who?.sessionId !== undefined) sessions.revoke(who.sessionId);
  const session = sessions.create(user);
  const setCookie = { 'set-cookie': sessionCookie(cookieName, session.id, cookieOptions) };
  return json ? sendJson(res, 200, { user }, setCookie) : seeOther(res, next, setCookie);
}

/**
 * Where to go after signing in: a path on this site only (no //host, no backslash, which browsers
 * read as a slash), else "/". Keeps /login from being an open redirect.
 */
export function safeNextPath(raw) {
  if (typeof raw !== 'string' || raw.length > 2048 || !raw.startsWith('/')) return '/';
  if (raw.startsWith('//') || /[\p{Cc}\\]/u.test(raw)) return '/';
  if (/^\/(login|logout)(?:[/?#]|$)/.test(raw)) return '/';
  return raw;
}

async function checkCredentials(login, fields) {
  const str = (v) => (typeof v === 'string' ? v : '');
  if (login.kind === 'token') return matchesDigest(str(fields.token), login.digest) ? 'token' : null;
  const name = str(fields.user);
  const known = login.users.get(name);
  decoy ??= decoyHash();
  // Unknown names cost the same scrypt run, so timing does not tell which names exist.
  const ok = await verifyPassword(str(fields.password), known ?? decoy);
  return ok && known !== undefined ? name : null;
}

function parseFields(text, json) {
  if (!json) return Object.fromEntries(new URLSearchParams(text));
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw Object.assign(
      new Error('the body is not JSON: send {"token": "…"} or {"user": "…", "password": "…"}'),
      { status: 400 },
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw Object.assign(new Error('send a JSON object: {"token": "…"} or {"user": "…", "password": "…"}'), {
      status: 400,
    });
  }
  return value;
}

function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks = [];
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(Object.assign(new Error(`the sign-in body is over ${limit} bytes`), { status: 413 }));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
