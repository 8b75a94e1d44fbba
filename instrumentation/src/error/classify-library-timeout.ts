import { errorName, read, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * A library's own timeout that reaches the caller as an abort. gaxios turns its `timeout` option
 * into `AbortSignal.timeout()`; node-fetch, which it runs on, rejects every aborted request with
 * the same `AbortError` (type "aborted"), so the error alone reads as the caller's abort and is
 * never retried. The signal the request ran with still says why it fired: its `reason` is a
 * `TimeoutError` DOMException for a timeout, an `AbortError` for `controller.abort()`. Only a
 * signal the caller aborted is the caller's; a timer firing is transient.
 * Code rule: "ETIMEDOUT", as for every library's own timeout without a socket code.
 */

/** Where clients keep the request options that carry the signal: gaxios `config`, others `request`/`options`. */
const OPTION_KEYS = ['config', 'request', 'options'] as const;

function requestSignal(err: unknown): unknown {
  for (const key of OPTION_KEYS) {
    const signal = read(read(err, key), 'signal');
    if (signal !== undefined && signal !== null) return signal;
  }
  return read(err, 'signal');
}

function isAbort(err: unknown): boolean {
  if (readString(err, 'name') === 'AbortError' || readString(err, 'type') === 'aborted') return true;
  const cause = read(err, 'cause') ?? read(err, 'error');
  return readString(cause, 'name') === 'AbortError' || readString(cause, 'type') === 'aborted';
}

export function classifyLibraryTimeout(err: unknown, name: string = errorName(err) ?? ''): Verdict | null {
  const signal = requestSignal(err);
  if (signal === undefined || read(signal, 'aborted') !== true) return null;
  if (readString(read(signal, 'reason'), 'name') !== 'TimeoutError' || !isAbort(err)) return null;
  return {
    class: 'transient',
    code: 'ETIMEDOUT',
    source: name === 'GaxiosError' ? 'sdk' : 'http',
    raw: { name, reason: 'TimeoutError' },
  };
}
