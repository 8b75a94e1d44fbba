import type { Envelope, HttpResponseLike } from '../types.js';
import { type BodyFindings, newBodyFindings } from './body-findings.js';
import { decideHttpFailure } from './decide-http-failure.js';
import { readHeaderFindings } from './header-findings.js';
import type { HttpClassifyContext } from './http-classify-context.js';
import { jsonBodyFindings } from './json-body-findings.js';
import { type BodyView, readBody, readStatus } from './read-response.js';
import { textBodyFindings } from './text-body-findings.js';

/** The body's findings; a body whose getters throw while it is read says nothing. */
function readBodyFindings(view: BodyView, status: number): BodyFindings | undefined {
  try {
    if (view.json !== undefined) return jsonBodyFindings(view.json, status);
    return view.text !== undefined ? textBodyFindings(view.text) : undefined;
  } catch {
    return undefined;
  }
}

/** A failing status whose body said nothing. Read only, so one object serves every such response. */
const SILENT_BODY: Readonly<BodyFindings> = newBodyFindings(true);

/**
 * Classifies an HTTP response into an envelope, or `null` when it is not a failure, in three
 * stages: read the response (status, body, then headers), let each reader say what it found
 * (the body's findings, the headers' findings), and make one decision over the findings.
 */
export function classifyHttpResponse(res: HttpResponseLike, ctx?: HttpClassifyContext): Envelope | null {
  // 1. Read: the status and the body; the headers only once the response is known to fail.
  const status = readStatus(res);
  const failing = status >= 400;
  const view = readBody(res.body, failing);
  // 2. Findings: the body's first, since a 2xx is a failure only if its body says so.
  const body = readBodyFindings(view, status);
  if (!failing && body?.failure !== true) return null;
  const headers = readHeaderFindings(res.headers, status, ctx?.nowMs);
  // 3. One decision.
  return decideHttpFailure(status, view, body ?? SILENT_BODY, headers, ctx);
}
