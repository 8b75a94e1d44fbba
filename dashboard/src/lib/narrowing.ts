import { parsePrintable, type SearchParams, single } from './url-values';

/**
 * What narrows failures beyond service, source, class and dependency, on the Overview, Failures and
 * Dependencies alike (narrowed_failures.sql): one code, one service.version, one endpoint (the
 * failing span's name) and a message search. In the URL, so a count opened elsewhere keeps them.
 */
export interface Narrowing {
  /** One failure code, matched exactly; '' = every code. */
  code: string;
  /** One service.version of the failing span's resource; '' = every version. */
  version: string;
  /** One failing span name ('POST /cart', 'GET', 'UPDATE'); '' = every endpoint. */
  endpoint: string;
  /** A case-insensitive substring of the failure message; '' = no search. */
  q: string;
}

export const NARROWING_KEYS = ['code', 'version', 'endpoint', 'q'] as const;

export const NO_NARROWING: Narrowing = { code: '', version: '', endpoint: '', q: '' };

/** A search longer than this is a pasted log line, not a search: it is refused with the limit. */
export const MAX_SEARCH_CHARS = 100;

/** Reads `code`, `version`, `endpoint` and `q`; throws RangeError saying what to change. */
export function parseNarrowing(sp: SearchParams): Narrowing {
  const q = (single(sp, 'q') ?? '').trim();
  if ([...q].length > MAX_SEARCH_CHARS)
    throw new RangeError(
      `"q" searches messages for at most ${MAX_SEARCH_CHARS} characters, got ${[...q].length}: search for a shorter part of the message.`,
    );
  return {
    code: parsePrintable(sp, 'code', 'a failure code'),
    version: parsePrintable(sp, 'version', 'a service.version', 100),
    endpoint: parsePrintable(sp, 'endpoint', 'an endpoint (a span name)'),
    q: parsePrintable({ q }, 'q', 'a message search', MAX_SEARCH_CHARS),
  };
}

/** Whether any of them is set: then the failure panels read narrowed_failures and narrowed_timeline. */
export function isNarrowed(n: Narrowing): boolean {
  return NARROWING_KEYS.some((k) => n[k] !== '');
}

/** As URL values ('' removes a key). */
export function narrowingLinkParams(n: Narrowing): Record<string, string | null> {
  return Object.fromEntries(NARROWING_KEYS.map((k) => [k, n[k] || null]));
}
