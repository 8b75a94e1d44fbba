import { createHash } from 'node:crypto';

// The sign-in page, served by the gate itself (not by Next): it must work before any session
// exists and whatever state the app is in. No script; its one stylesheet is allowed by hash.

const STYLE = `body{font:15px/1.5 system-ui,sans-serif;background:#f6f7f9;color:#1d2430;margin:0}
main{max-width:22rem;margin:12vh auto;padding:2rem;background:#fff;border:1px solid #d8dde5;border-radius:8px}
h1{font-size:1.3rem;margin:0 0 1rem}label{display:block;margin:.75rem 0 .25rem}
input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit}
button{margin-top:1rem;padding:.5rem 1rem;font:inherit;cursor:pointer}
.error{color:#a11;background:#fdecec;padding:.5rem;border-radius:4px}`;

/** The page's Content-Security-Policy: nothing but its own style; framing refused (clickjacking). */
export const LOGIN_PAGE_CSP =
  `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; ` +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * `kind`: 'token' (one access-token field) or 'users' (name and password). `next`: where to go
 * after signing in (already checked to be a local path). `signedInAs`: show sign-out instead.
 */
export function renderLoginPage({ kind, next, message = null, signedInAs = null }) {
  const error = message === null ? '' : `<p class="error" role="alert">${escapeHtml(message)}</p>`;
  const body =
    signedInAs !== null
      ? `<p>Signed in as <b>${escapeHtml(signedInAs)}</b>.</p><p><a href="${escapeHtml(next)}">Continue</a></p>
<form method="post" action="/logout"><button type="submit">Sign out</button></form>`
      : `<form method="post" action="/login"><input type="hidden" name="next" value="${escapeHtml(next)}">${
          kind === 'users'
            ? `<label for="user">User</label><input id="user" name="user" autocomplete="username" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>`
            : `<label for="token">Access token</label><input id="token" name="token" type="password" autocomplete="current-password" required autofocus>`
        }
<button type="submit">Sign in</button></form>`;
  return page('Sign in · Faultline', `<h1>Faultline</h1>${error}${body}`);
}

/**
 * A SameSite=Strict cookie is not sent on a navigation that starts on another site (a link in a
 * chat or a ticket), so such a visit looks signed out. This page reloads the same URL from this
 * origin, which does carry the cookie; a visitor who really is signed out then gets /login.
 */
export function renderReloadPage(target) {
  const href = escapeHtml(target);
  return page(
    'Faultline',
    `<p><a href="${href}">Continue to Faultline</a></p>`,
    `<meta http-equiv="refresh" content="0;url=${href}">`,
  );
}

function page(title, main, head = '') {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
${head}<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${main}</main></body></html>`;
}

function escapeHtml(s) {
  return String(s).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  );
}
