import { type AttemptRecord, RetryError, withRetry } from '@faultline/instrumentation';

export interface PostResult {
  ok: boolean;
  attempts: number;
  status: number;
  error: string;
}

export interface PostOptions {
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs?: number;
}

/**
 * POSTs JSON under the project's own retry policies: the response is classified with
 * classifyHttpResponse, so a 429's Retry-After is waited out, a 5xx retried with jittered backoff,
 * and a 4xx (validation/permanent) is not repeated. Never throws: the outcome is reported.
 */
export async function postJson(url: string, body: unknown, opts: PostOptions = {}): Promise<PostResult> {
  const records: AttemptRecord[] = [];
  const text = JSON.stringify(body);
  try {
    const res = await withRetry(
      () =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: text,
          signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
        }),
      {
        maxAttempts: opts.maxAttempts ?? 5,
        baseDelayMs: opts.baseDelayMs ?? 500,
        maxDelayMs: opts.maxDelayMs ?? 60_000,
        classify: { source: 'http' },
        onAttempt: (r) => records.push(r),
      },
    );
    const attempts = records.length + (res.ok ? 1 : 0);
    if (res.ok) {
      await res.body?.cancel();
      return { ok: true, attempts, status: res.status, error: '' };
    }
    const last = records[records.length - 1];
    return {
      ok: false,
      attempts: Math.max(1, records.length),
      status: res.status,
      error: last
        ? `${last.envelope.class} ${last.envelope.code}: ${last.envelope.message}`
        : `HTTP ${res.status}`,
    };
  } catch (err) {
    const e = err instanceof RetryError ? err : null;
    return {
      ok: false,
      attempts: e ? e.attempts.length : 1,
      status: 0,
      error: e ? `${e.envelope.class} ${e.envelope.code}: ${e.envelope.message}` : String(err),
    };
  }
}
