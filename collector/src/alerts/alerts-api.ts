import type { IncomingMessage, ServerResponse } from 'node:http';
import { isLoopback } from '../config/receiver-config.js';
import { checkBearer } from '../ingest/check-bearer.js';
import { sendProblem } from '../server/send-problem.js';
import type { AlertEvaluator } from './alert-evaluator.js';
import type { Silence } from './silence-book.js';
import { parseSilenceInput, SilenceInputError } from './silence-input.js';

/** Where the alerts API answers, on the alerts role's port or beside OTLP on the collector's. */
export const ALERTS_API_PREFIX = '/api/alerts/';

/** A silence request is a few hundred bytes; anything near this is not one. */
const MAX_BODY_BYTES = 16 * 1024;

/** Who may call: the listener's host and the ingest token (FAULTLINE_INGEST_TOKEN), if any. */
export interface ApiAccess {
  host: string;
  token?: string;
}

export interface AlertsApi {
  /** Answers a request under ALERTS_API_PREFIX; false (nothing sent) for any other path. */
  handle(req: IncomingMessage, res: ServerResponse, access: ApiAccess): boolean;
}

const ROUTES =
  'GET /api/alerts/services, GET and POST /api/alerts/silences, DELETE /api/alerts/silences/<id>';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A silence as the API shows it: ISO times, the Alertmanager mirror apart. */
export function silenceJson(s: Silence) {
  return {
    id: s.id,
    service: s.service,
    class: s.class,
    alertname: s.alertname,
    startsAt: iso(s.startsAtMs),
    endsAt: iso(s.endsAtMs),
    createdAt: iso(s.createdAtMs),
    author: s.author,
    reason: s.reason,
    status: s.status,
    expiredBy: s.expiredBy,
    alertmanager: { id: s.alertmanagerId, state: s.alertmanagerState, error: s.mirrorError },
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** Beyond loopback the API takes the ingest token, like /metrics; without one it serves nobody there. */
function refusal(access: ApiAccess, authorization: string | undefined): string | null {
  if (isLoopback(access.host)) return null;
  if (!access.token)
    return `the alerts API listens on ${access.host}, beyond loopback, without FAULTLINE_INGEST_TOKEN: set it and send Authorization: Bearer <token>, or listen on 127.0.0.1`;
  return checkBearer(authorization, access.token)
    ? null
    : 'beyond loopback the alerts API needs Authorization: Bearer <FAULTLINE_INGEST_TOKEN>';
}

class BodyTooLarge extends Error {}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return reject(new BodyTooLarge());
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new SilenceInputError(`the body is not JSON (${text.length} bytes): send a JSON object`));
      }
    });
  });
}

/**
 * The alerts HTTP API: silences (create, list, expire early) and the services as the last
 * evaluation judged them. The same access rule as /metrics: open on loopback, the ingest token
 * beyond it, nothing beyond it without one.
 */
export function createAlertsApi(o: { evaluator: AlertEvaluator; now?: () => number }): AlertsApi {
  const now = o.now ?? Date.now;
  const { evaluator } = o;

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const rest = url.pathname.slice(ALERTS_API_PREFIX.length);
    const method = req.method ?? 'GET';
    const only = (allow: string) => {
      req.resume();
      sendProblem(res, 405, 'Method Not Allowed', `${url.pathname} answers ${allow}`, { allow });
    };
    if (rest === 'services') {
      if (method !== 'GET') return only('GET');
      req.resume();
      const judged = evaluator.services();
      return sendJson(res, 200, {
        evaluatedAt: iso(judged?.atMs ?? null),
        services: (judged?.services ?? []).map((v) => ({
          ...v,
          lastSeenAt: iso(v.lastSeenS === null ? null : v.lastSeenS * 1000),
        })),
      });
    }
    if (rest === 'silences') {
      if (method === 'GET') {
        req.resume();
        const since = url.searchParams.get('since');
        const sinceMs = since === null ? undefined : Date.parse(since);
        if (sinceMs !== undefined && !Number.isFinite(sinceMs))
          return sendProblem(
            res,
            400,
            'Bad Request',
            `since=${since} is not a time: give an ISO 8601 time, e.g. 2026-03-01T00:00:00Z, to list the silences that end after it (default: now)`,
          );
        const list = await evaluator.silences.list(sinceMs);
        return sendJson(res, 200, { silences: list.map(silenceJson) });
      }
      if (method !== 'POST') return only('GET, POST');
      const type = String(req.headers['content-type'] ?? '');
      if (!/\bjson\b/i.test(type)) {
        req.resume();
        return sendProblem(
          res,
          415,
          'Unsupported Media Type',
          `send the silence as JSON (content-type: application/json), not ${type || 'no content type'}`,
        );
      }
      const spec = parseSilenceInput(await readJson(req), now());
      const created = await evaluator.silences.create(spec);
      return sendJson(res, 201, silenceJson(created), {
        location: `${ALERTS_API_PREFIX}silences/${encodeURIComponent(created.id)}`,
      });
    }
    const id = /^silences\/([^/]+)$/.exec(rest)?.[1];
    if (id !== undefined) {
      if (method !== 'DELETE') return only('DELETE');
      req.resume();
      const by = url.searchParams.get('author')?.trim() || 'api';
      const expired = await evaluator.silences.expire(decodeURIComponent(id), by.slice(0, 200));
      if (!expired)
        return sendProblem(
          res,
          404,
          'Not Found',
          `no silence ${decodeURIComponent(id)}: list them with GET /api/alerts/silences`,
        );
      return sendJson(res, 200, silenceJson(expired));
    }
    req.resume();
    sendProblem(
      res,
      404,
      'Not Found',
      `no route ${method} ${url.pathname}; the alerts API answers ${ROUTES}`,
    );
  }

  return {
    handle(req, res, access) {
      const url = new URL(req.url ?? '/', 'http://alerts.invalid');
      if (!url.pathname.startsWith(ALERTS_API_PREFIX)) return false;
      const why = refusal(access, req.headers.authorization);
      if (why) {
        req.resume();
        sendProblem(res, 401, 'Unauthorized', why, { 'www-authenticate': 'Bearer' });
        return true;
      }
      route(req, res, url).catch((err: unknown) => {
        if (res.headersSent) return res.destroy();
        if (err instanceof SilenceInputError) return sendProblem(res, 400, 'Bad Request', err.message);
        if (err instanceof BodyTooLarge)
          return sendProblem(
            res,
            413,
            'Content Too Large',
            `a silence is at most ${MAX_BODY_BYTES} bytes of JSON`,
          );
        console.error('[faultline] alerts API request failed:', err);
        sendProblem(res, 500, 'Internal Server Error', 'the alerts API could not answer; see the log');
      });
      return true;
    },
  };
}
