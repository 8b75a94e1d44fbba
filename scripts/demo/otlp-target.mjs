// Where the demo sends its spans, and how it knows they landed. `npm start` prints its OTLP URL as
// `…/v1/traces`, OpenTelemetry's OTEL_EXPORTER_OTLP_ENDPOINT is the base without it: the demo takes
// either and hands the services both forms, so no exporter appends /v1/traces to a traces URL.

const TRACES_PATH = '/v1/traces';

export const OTLP_EXAMPLES =
  "the collector's base URL such as http://127.0.0.1:4318, or the traces URL `npm start` prints, such as http://127.0.0.1:4318/v1/traces";

/**
 * `{ base, traces }` from a base URL or a full traces URL; throws an Error saying what to pass for
 * anything else (another scheme, another path, a query, credentials in the URL).
 */
export function normalizeOtlpUrl(raw, what = '--otlp') {
  const text = String(raw ?? '').trim();
  let url;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${what} ${JSON.stringify(text)} is not a URL: pass ${OTLP_EXAMPLES}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(
      `${what} ${text} is not an http(s) URL (OTLP/HTTP only; the demo does not export over gRPC): pass ${OTLP_EXAMPLES}.`,
    );
  if (url.username || url.password)
    throw new Error(
      `${what} ${url.origin}: credentials do not go in the URL; set FAULTLINE_INGEST_TOKEN (or OTEL_EXPORTER_OTLP_HEADERS) and pass ${OTLP_EXAMPLES}.`,
    );
  if (url.search || url.hash)
    throw new Error(`${what} ${text} carries a query or fragment: pass ${OTLP_EXAMPLES}.`);
  const path = url.pathname.replace(/\/+$/, '');
  if (path !== '' && path !== TRACES_PATH)
    throw new Error(
      `${what} ${text}: ${path} is not where OTLP traces go${/\/v1\/(metrics|logs)$/.test(path) ? ' (that is another signal’s path)' : ''}; pass ${OTLP_EXAMPLES}.`,
    );
  const base = `${url.origin}`;
  return { base, traces: `${base}${TRACES_PATH}` };
}

/**
 * The headers the services' exporters will send: OTEL_EXPORTER_OTLP_HEADERS and
 * OTEL_EXPORTER_OTLP_TRACES_HEADERS (key=value, comma-separated, values percent-encoded), else the
 * ingest token as `Authorization: Bearer`. `env` gains the variable the services need for that.
 */
export function exportHeaders(env) {
  const headers = {};
  for (const name of ['OTEL_EXPORTER_OTLP_HEADERS', 'OTEL_EXPORTER_OTLP_TRACES_HEADERS']) {
    for (const part of (env[name] ?? '').split(',')) {
      const eq = part.indexOf('=');
      if (eq <= 0) continue;
      let value = part.slice(eq + 1).trim();
      try {
        value = decodeURIComponent(value);
      } catch {
        // Not percent-encoded: as written.
      }
      headers[part.slice(0, eq).trim().toLowerCase()] = value;
    }
  }
  if (!headers.authorization && env.FAULTLINE_INGEST_TOKEN) {
    headers.authorization = `Bearer ${env.FAULTLINE_INGEST_TOKEN}`;
    const extra = `authorization=${encodeURIComponent(headers.authorization)}`;
    env.OTEL_EXPORTER_OTLP_HEADERS = env.OTEL_EXPORTER_OTLP_HEADERS
      ? `${env.OTEL_EXPORTER_OTLP_HEADERS},${extra}`
      : extra;
  }
  return headers;
}

/**
 * Sends an empty export, as the services will: resolves when the collector takes it, else throws
 * an Error saying what is wrong and what to do.
 */
export async function checkReceiver({ base, traces }, headers) {
  let res;
  try {
    res = await fetch(traces, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    const why = err.cause?.code ?? err.cause?.errors?.[0]?.code ?? err.cause?.message ?? err.message;
    throw new Error(
      `no collector answers at ${base} (${why}). Start it with \`npm start\` first, or pass --otlp (${OTLP_EXAMPLES}).`,
    );
  }
  const text = await res.text().catch(() => '');
  if (res.ok) return;
  const said = text ? `: ${text.slice(0, 300)}` : '';
  if (res.status === 401 || res.status === 403)
    throw new Error(
      `the collector at ${traces} refuses the demo's exports (${res.status}${said}). Set FAULTLINE_INGEST_TOKEN to its ingest token (the demo sends it as Authorization: Bearer), or OTEL_EXPORTER_OTLP_HEADERS=authorization=Bearer%20<token>.`,
    );
  if (res.status === 404 || res.status === 405)
    throw new Error(
      `nothing receives OTLP traces at ${traces} (${res.status}${said}). Pass --otlp with ${OTLP_EXAMPLES}.`,
    );
  throw new Error(`the collector at ${traces} answered an empty export with ${res.status}${said}.`);
}

/**
 * The collector's span counters from its /healthz (Faultline's): accepted and stored since it
 * started, and requests refused by status. Throws an Error when there is no such endpoint.
 */
export async function readCounters(base, headers) {
  let res;
  try {
    res = await fetch(`${base}/healthz`, {
      headers: headers.authorization ? { authorization: headers.authorization } : {},
      signal: AbortSignal.timeout(10_000),
    });
  } catch (err) {
    throw new Error(`${base}/healthz does not answer (${err.cause?.code ?? err.message})`);
  }
  const body = await res.json().catch(() => null);
  const ingest = body?.ingest;
  if (!res.ok || typeof ingest?.accepted !== 'number' || typeof ingest?.stored !== 'number')
    throw new Error(
      `${base}/healthz (${res.status}) is not a Faultline collector's: it has no span counters`,
    );
  return {
    startedAt: ingest.startedAt,
    accepted: ingest.accepted,
    stored: ingest.stored,
    pending: ingest.pending ?? 0,
    refused: ingest.refused?.byStatus ?? {},
    problems: body.problems ?? [],
  };
}

/**
 * Waits for the spans the run made to be stored: until the stored count has grown by `atLeast`
 * with nothing pending, or the counters stood still for `quietMs`, or `timeoutMs` passed. Returns
 * the growth of the collector's counters since `before`, and its latest /healthz figures.
 */
export async function waitForLanding(
  base,
  headers,
  before,
  atLeast,
  { timeoutMs = 30_000, quietMs = 3_000, pollMs = 250 } = {},
) {
  const deadline = Date.now() + timeoutMs;
  let last;
  let lastChange = Date.now();
  for (;;) {
    const now = await readCounters(base, headers);
    const result = {
      restarted: now.startedAt !== before.startedAt,
      accepted: now.accepted - before.accepted,
      stored: now.stored - before.stored,
      now,
    };
    if (result.restarted) return result;
    const key = `${now.accepted}/${now.stored}/${now.pending}`;
    if (last !== key) {
      last = key;
      lastChange = Date.now();
    }
    if (result.stored >= atLeast && now.pending === 0) return result;
    if (Date.now() - lastChange > quietMs || Date.now() > deadline) return result;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** What the collector refused during the run, by HTTP status, e.g. `401 ×12`. */
export function refusedDuring(before, now) {
  return Object.entries(now.refused)
    .map(([status, n]) => [status, n - (before.refused[status] ?? 0)])
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${status} ×${n}`)
    .join(', ');
}
