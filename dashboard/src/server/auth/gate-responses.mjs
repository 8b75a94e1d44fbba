// How the gate answers when it answers itself. Nothing it sends is cached, sniffed or framed.

const BASE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/**
 * Headers added to every response the gate lets through to Next: no framing by other sites
 * (clickjacking the console), and no correlation ids or SQL leaking in Referer to linked sites.
 */
export function setPassHeaders(res) {
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('content-security-policy', "frame-ancestors 'none'");
  res.setHeader('referrer-policy', 'same-origin');
  res.setHeader('x-content-type-options', 'nosniff');
}

/** A refusal: JSON `{ error }` for API callers, plain text for pages. The body of the request is dropped. */
export function refuse(req, res, status, message, { json, headers = {} }) {
  const body = json ? JSON.stringify({ error: message }) : `${message}\n`;
  // An unread request body would otherwise have to be read to keep the connection; close it instead.
  const unsafe = req.method !== 'GET' && req.method !== 'HEAD';
  if (unsafe) req.resume();
  res.writeHead(status, {
    ...BASE_HEADERS,
    'content-type': json ? 'application/json' : 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...(unsafe ? { connection: 'close' } : {}),
    ...headers,
  });
  res.end(body);
}

export function sendHtml(res, status, html, csp, headers = {}) {
  res.writeHead(status, {
    ...BASE_HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'content-security-policy': csp,
    'referrer-policy': 'same-origin',
    ...headers,
  });
  res.end(html);
}

export function sendJson(res, status, value, headers = {}) {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    ...BASE_HEADERS,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

/** 303: the browser follows with a GET, whatever the method that led here. */
export function seeOther(res, location, headers = {}) {
  res.writeHead(303, { ...BASE_HEADERS, location, 'content-length': 0, ...headers });
  res.end();
}
