import type { SilenceSpec } from './silence-input.js';

/** An Alertmanager answer: the outcome, never thrown. */
export type AlertmanagerResult<T> = { ok: true; value: T } | { ok: false; error: string };

const TIMEOUT_MS = 10_000;

async function call<T>(
  url: string,
  init: RequestInit,
  read: (res: Response) => Promise<T>,
): Promise<AlertmanagerResult<T>> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!res.ok) {
      const detail = (await res.text().catch(() => '')).trim().slice(0, 300);
      return { ok: false, error: `${init.method} ${url}: HTTP ${res.status}${detail ? ` ${detail}` : ''}` };
    }
    return { ok: true, value: await read(res) };
  } catch (err) {
    return { ok: false, error: `${init.method} ${url}: ${(err as Error)?.message ?? err}` };
  }
}

/**
 * The silence as Alertmanager's v2 API takes it (POST /api/v2/silences): one equality matcher per
 * label the silence names, its times, createdBy = the author, comment = the reason.
 */
export function alertmanagerSilence(s: SilenceSpec): unknown {
  const matchers = (['service', 'class', 'alertname'] as const)
    .filter((name) => s[name] !== '')
    .map((name) => ({ name, value: s[name], isRegex: false, isEqual: true }));
  return {
    matchers,
    startsAt: new Date(s.startsAtMs).toISOString(),
    endsAt: new Date(s.endsAtMs).toISOString(),
    createdBy: s.author,
    comment: s.reason,
  };
}

/** Creates the silence in Alertmanager; its id on success. */
export function postSilence(baseUrl: string, s: SilenceSpec): Promise<AlertmanagerResult<string>> {
  return call(
    `${baseUrl}/api/v2/silences`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(alertmanagerSilence(s)),
    },
    async (res) => {
      const body = (await res.json()) as { silenceID?: unknown };
      if (typeof body.silenceID !== 'string' || body.silenceID === '')
        throw new Error(`Alertmanager answered without a silenceID: ${JSON.stringify(body)}`);
      return body.silenceID;
    },
  );
}

/** Expires the silence in Alertmanager (DELETE /api/v2/silence/{id}). */
export function deleteSilence(baseUrl: string, id: string): Promise<AlertmanagerResult<null>> {
  return call(`${baseUrl}/api/v2/silence/${encodeURIComponent(id)}`, { method: 'DELETE' }, async (res) => {
    await res.body?.cancel();
    return null;
  });
}
