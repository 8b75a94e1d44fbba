import type { RankedCodes } from './vendor-codes.js';

/** What a response body said about a failure, before the status is consulted. */
export interface BodyFindings extends RankedCodes {
  /** The body reports a failure even if the status does not (2xx silent failures). */
  failure: boolean;
  message: string | undefined;
  /** The server's explicit retry verdict (problem body `retryable`). */
  retryable: boolean | undefined;
  /** Seconds the body asked to wait (problem `retry_after`, Discord, google.rpc.RetryInfo, Shopify cost). */
  retryAfter: number | undefined;
}

/**
 * Findings with every field present from the start, so all of them share one hidden class and
 * the decision's reads stay monomorphic whichever fields a body filled in.
 */
export function newBodyFindings(failure: boolean, message?: string): BodyFindings {
  return {
    failure,
    cls: undefined,
    quota: undefined,
    named: undefined,
    ranked: undefined,
    message,
    retryable: undefined,
    retryAfter: undefined,
  };
}
