import type { ErrorClass } from '../types.js';
import { read, readCode, readString } from './safe-read.js';
import { pick, type Verdict } from './verdict.js';

/**
 * undici (Node's fetch) and the fetch/DOM abort family. undici's errors carry `code` UND_ERR_*;
 * fetch itself rejects with `TypeError: fetch failed` whose `cause` is the undici or system error
 * (see isFetchFailure); AbortSignal.timeout() rejects with a DOMException named TimeoutError, a
 * caller's abort with one named AbortError.
 * Code rule: undici's code ("UND_ERR_CONNECT_TIMEOUT"); the DOMException name otherwise.
 * Errors that embed a response (UND_ERR_RESPONSE, UND_ERR_RESPONSE_STATUS_CODE, UND_ERR_REQ_RETRY)
 * are left to the embedded-status step so the response's status and headers decide.
 */

const BY_CODE: Record<string, ErrorClass> = {
  UND_ERR_CONNECT_TIMEOUT: 'transient',
  UND_ERR_HEADERS_TIMEOUT: 'transient',
  UND_ERR_BODY_TIMEOUT: 'transient',
  UND_ERR_SOCKET: 'transient',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'transient', // the response was cut short
  UND_ERR_INFO: 'transient',
  UND_ERR_BPL_MISSING_UPSTREAM: 'transient',
  UND_ERR_REQ_RETRY: 'transient', // retries exhausted without a status to go on
  UND_ERR_RESPONSE_STATUS_CODE: 'permanent', // without a readable status: nothing says a retry helps
  UND_ERR_RESPONSE: 'permanent',
  UND_ERR_ABORTED: 'permanent', // the caller aborted
  UND_ERR_ABORT: 'permanent',
  UND_ERR_DESTROYED: 'permanent', // the application destroyed the client
  UND_ERR_CLOSED: 'permanent',
  UND_ERR_INVALID_ARG: 'validation',
  UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: 'validation', // the request body disagrees with its header
  UND_ERR_INVALID_RETURN_VALUE: 'permanent',
  UND_ERR_HEADERS_OVERFLOW: 'permanent',
  UND_ERR_NOT_SUPPORTED: 'permanent',
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'permanent',
  UND_ERR_PRX_TLS: 'permanent',
  UND_ERR_MAX_ORIGINS_REACHED: 'permanent',
  UND_ERR_WS_MESSAGE_SIZE_EXCEEDED: 'permanent',
};

/** Browser and fetch-polyfill messages for a request that never got a response. */
const FETCH_FAILURE_MESSAGES = new Set([
  'fetch failed',
  'Failed to fetch',
  'NetworkError when attempting to fetch resource.',
  'Load failed',
  'Network request failed',
]);

const RAW_KEYS = ['name', 'code'];

/** `TypeError: fetch failed` and its browser equivalents: the cause, if any, says why. */
export function isFetchFailure(err: unknown): boolean {
  const message = readString(err, 'message');
  return (
    message !== undefined && FETCH_FAILURE_MESSAGES.has(message) && readString(err, 'name') === 'TypeError'
  );
}

export function classifyUndiciError(err: unknown): Verdict | null {
  const code = readCode(err);
  if (code?.startsWith('UND_ERR')) {
    const cls = BY_CODE[code] ?? 'permanent';
    return { class: cls, code, source: 'http', raw: pick(err, RAW_KEYS) };
  }
  // llhttp parse errors (HPE_INVALID_CONSTANT…): the peer spoke something other than HTTP.
  if (code?.startsWith('HPE_')) {
    return { class: 'permanent', code, source: 'http', raw: pick(err, RAW_KEYS) };
  }
  // got's and ky's TimeoutError carry a Node code (ETIMEDOUT): the code table answers those.
  if (code !== undefined && typeof read(err, 'code') === 'string') return null;
  const name = readString(err, 'name');
  // DOMException names (numeric legacy `code`), shared by fetch, AbortSignal.timeout() and AbortController.
  if (name === 'TimeoutError') {
    // A DOMException (numeric legacy `code` 23) keeps its standard name; a client's own
    // TimeoutError class (ky) is coded like a socket timeout: never by the library's class name.
    const code = typeof read(err, 'code') === 'number' ? name : 'ETIMEDOUT';
    return { class: 'transient', code, source: 'http', raw: pick(err, RAW_KEYS) };
  }
  if (name === 'AbortError') {
    return { class: 'permanent', code: name, source: 'http', raw: pick(err, RAW_KEYS) };
  }
  return null;
}
