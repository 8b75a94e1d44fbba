// The few lines every demo service shares: a JSON HTTP server on a free port that tells the parent
// its port, and the HTTP status a service answers with for a failed dependency (from its class).
import { createServer } from 'node:http';
import { classifyError } from '@faultline/instrumentation';

const STATUS_BY_CLASS = {
  validation: 422,
  authentication: 401,
  rate_limit: 429,
  transient: 503,
  permanent: 500,
};

export function statusForError(err, ctx) {
  const envelope = classifyError(err, ctx);
  return { status: STATUS_BY_CLASS[envelope.class] ?? 500, envelope };
}

export class StepFailed extends Error {
  constructor(status, detail) {
    super(`step failed with ${status}`);
    this.status = status;
    this.detail = detail;
  }
}

/** routes: { 'POST /path': async (body) => result }. A thrown StepFailed sets the status. */
export function serve(routes, onClose) {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const route = routes[`${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`];
      if (!route) {
        res.writeHead(404).end();
        return;
      }
      try {
        const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
        const result = await route(body);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
      } catch (err) {
        const status = err instanceof StepFailed ? err.status : 500;
        const detail = err instanceof StepFailed ? err.detail : { message: String(err?.message ?? err) };
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ok: false, ...detail }));
      }
    });
  });
  server.listen(0, '127.0.0.1', () => {
    // The parent waits for this line to learn the port.
    process.stdout.write(`ready ${server.address().port}\n`);
  });
  // Once, however many signals arrive (Ctrl-C reaches the services too, then the demo's SIGTERM):
  // a pool's end() rejects when called twice, and that rejection would have no one to hear it.
  let stopping;
  const stop = () => {
    stopping ??= (async () => {
      server.close();
      server.closeAllConnections();
      try {
        await onClose?.();
      } catch (err) {
        console.error(`closing: ${err?.message ?? err}`);
      }
      // No process.exit here: the preload flushes its last spans on the signal and before a natural
      // exit. The timer only ends a process that something still holds open.
      setTimeout(() => process.exit(0), 5000).unref();
    })();
    return stopping;
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

// The services fail on purpose, all the time: every promise a route makes is awaited inside its
// try, and the clients' error events are heard (see the services). Should one still escape, it is
// reported on stderr with this prefix (the demo counts these lines) and the service keeps serving
// the run, instead of dying with the run's later workflows.
export const ESCAPED = 'escaped error (reported; the service keeps serving):';
process.on('unhandledRejection', (err) => console.error(`${ESCAPED} ${err?.stack ?? err}`));

/** POST JSON with fetch; a non-2xx answer becomes StepFailed with the callee's status. */
export async function postJson(url, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok || json.ok === false) throw new StepFailed(res.ok ? 502 : res.status, { from: url, ...json });
  return json;
}
