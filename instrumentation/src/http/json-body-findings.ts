/**
 * The JSON body reader: what a parsed body says about a failure, as BodyFindings. Every vendor
 * shape below adds to the one findings object this reader builds and returns; the codes it meets
 * are ranked as they come (vendor-codes' rankCode), since a later shape asks what an earlier
 * one decided (Google's canonical status counts only when no reason was recognized).
 */
import { type BodyFields, bodyFields, releaseFields } from './body-fields.js';
import { type BodyFindings, newBodyFindings } from './body-findings.js';
import { classForStatus, restatesStatus } from './status-class.js';
import { awsErrorName, rankCode, TWILIO_CODES } from './vendor-codes.js';

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The white space that makes a string prose rather than a code. */
const PROSE_SPACE = /[ \n\r\t]/;

/** A short identifier-like string (`invalid_auth`, `ThrottlingException`, `20429`), not prose. */
function asCode(value: unknown): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > 96) return undefined;
  // A native scan: a charCodeAt loop slows down severalfold once String.prototype leaves fast
  // mode (see secretHints).
  return PROSE_SPACE.test(value) ? undefined : value;
}

/** A non-empty string, or undefined. */
function asText(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** Seconds from a number, a numeric string, or a protobuf Duration (`"30s"`, `{ seconds, nanos }`). */
function asSeconds(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string') {
    const s = value.endsWith('s') && !value.endsWith('ms') ? value.slice(0, -1) : value;
    const n = s.trim() === '' ? Number.NaN : Number(s);
    return Number.isFinite(n) && n >= 0 ? n : undefined;
  }
  if (value !== null && typeof value === 'object') {
    const d = value as { seconds?: unknown; nanos?: unknown };
    const secs = Number(d.seconds ?? 0);
    const nanos = Number(d.nanos ?? 0);
    if (Number.isFinite(secs) && Number.isFinite(nanos) && (d.seconds !== undefined || d.nanos !== undefined))
      return secs + nanos / 1e9;
  }
  return undefined;
}

/** JSON-RPC 2.0 and EIP-1474 codes; numbers in the HTTP range (Alchemy's 429) go through the status table. */
function jsonRpc(err: Obj): BodyFindings {
  const code = typeof err.code === 'number' ? err.code : Number(err.code);
  const found = newBodyFindings(true);
  found.named = Number.isFinite(code) ? String(code) : asCode(err.code);
  found.message = asText(err.message);
  if (code >= 400 && code <= 599) found.cls = classForStatus(code) ?? undefined;
  else if (code === -32700 || code === -32600 || code === -32602 || code === -32000 || code === -32003)
    found.cls = 'validation';
  else if (code === -32603 || code === -32002) found.cls = 'transient';
  else if (code === -32005) found.cls = 'rate_limit';
  else if (code === -32601 || code === -32001 || code === -32004 || code === -32006) found.cls = 'permanent';
  return found;
}

/**
 * MCP `tools/call` results with `isError: true`: a failure inside a JSON-RPC success. The text is
 * free-form tool output, not a typed code, so it is reported but not mined for a class.
 */
function mcpToolError(result: Obj): BodyFindings {
  const first = Array.isArray(result.content)
    ? result.content.find((c) => isObj(c) && c.type === 'text')
    : undefined;
  const found = newBodyFindings(true, isObj(first) ? asText(first.text) : undefined);
  found.cls = 'permanent';
  return found;
}

/** GraphQL `errors[]` (Apollo `extensions.code`, GitHub `type`, AppSync `errorType`) and REST error lists. */
function errorList(found: BodyFindings, o: Obj, errors: unknown[]): void {
  found.failure = true;
  const n = Math.min(errors.length, 10);
  for (let i = 0; i < n; i++) {
    const e = errors[i];
    if (!isObj(e)) {
      if (found.message === undefined) found.message = asText(e);
      continue;
    }
    const ext = isObj(e.extensions) ? e.extensions : undefined;
    // GitHub REST lists field-level detail here ({ resource, field, code }): that code names a field.
    const fieldLevel = e.field !== undefined || e.resource !== undefined;
    rankCode(
      found,
      asCode(ext?.code) ??
        asCode(e.type) ??
        asCode(e.errorType) ??
        asCode(e.errorCode) ??
        (fieldLevel ? undefined : (asCode(e.code) ?? asCode(e.reason))),
    );
    rankCode(found, asCode(e.category), false); // Square: RATE_LIMIT_ERROR, AUTHENTICATION_ERROR
    if (ext !== undefined) found.retryAfter ??= asSeconds(ext.retryAfter ?? ext.retry_after);
    if (found.message === undefined) found.message = asText(e.message) ?? asText(e.detail) ?? asText(e.title);
  }
  if (found.cls === 'rate_limit') found.retryAfter ??= shopifyWait(o);
}

/**
 * Shopify reports its leaky bucket instead of a Retry-After: the wait is the missing points
 * divided by the restore rate, an exact figure from the server rather than a guess.
 */
function shopifyWait(o: Obj): number | undefined {
  const cost = isObj(o.extensions) && isObj(o.extensions.cost) ? o.extensions.cost : undefined;
  const bucket = cost && isObj(cost.throttleStatus) ? cost.throttleStatus : undefined;
  if (!cost || !bucket) return undefined;
  const requested = Number(cost.requestedQueryCost);
  const available = Number(bucket.currentlyAvailable);
  const rate = Number(bucket.restoreRate);
  if (!Number.isFinite(requested) || !Number.isFinite(available) || !(rate > 0)) return undefined;
  return Math.max(0, Math.ceil((requested - available) / rate));
}

/**
 * Meta Graph API (`fbtrace_id`, `OAuthException`): numeric codes name throttles (4, 17, 32, 613,
 * 80001–80014), expired or missing tokens (102, 190), permissions (10, 200–299), bad parameters
 * (100); `is_transient` is Meta's own retry verdict.
 */
function metaGraph(found: BodyFindings, e: Obj, code: number): void {
  found.named ??= String(code);
  if (
    code === 4 ||
    code === 17 ||
    code === 32 ||
    code === 341 ||
    code === 613 ||
    (code >= 80001 && code <= 80014)
  )
    found.cls = 'rate_limit';
  else if (code === 102 || code === 190 || code === 10 || (code >= 200 && code <= 299))
    found.cls = 'authentication';
  else if (code === 100) found.cls = 'validation';
  else if (code === 1 || code === 2) found.cls = 'transient';
  if (e.is_transient === true) found.retryable = true;
}

/** `{ error: { … } }`: Google, Stripe, OpenAI, Anthropic, Azure ARM/OData, JSON:API-ish bodies. */
function errorObject(found: BodyFindings, obj: Obj, status: number): void {
  found.failure = true;
  const e: BodyFields = bodyFields(obj);
  if (typeof e.code === 'number' && (typeof e.fbtrace_id === 'string' || e.type === 'OAuthException')) {
    metaGraph(found, obj, e.code);
  }
  const legacy = Array.isArray(e.errors) && isObj(e.errors[0]) ? e.errors[0] : undefined;
  rankCode(found, asCode(legacy?.reason));
  if (Array.isArray(e.details)) googleDetails(found, e.details);
  const code = asCode(e.code);
  // A code that restates the status (Google's numeric 429, Azure's "TooManyRequests") adds nothing.
  if (code !== undefined) rankCode(found, code, !restatesStatus(code, status));
  // Google's canonical status is a category: a recognised reason (ErrorInfo, legacy `errors[]`)
  // is more specific and decides (SERVICE_DISABLED under PERMISSION_DENIED is not a credential).
  if (found.cls === undefined) rankCode(found, asCode(e.status), false);
  rankCode(found, asCode(e.type), false);
  rankCode(found, asCode(e.decline_code), false);
  const inner = isObj(e.innererror) ? e.innererror : isObj(e.innerError) ? e.innerError : undefined;
  if (inner) rankCode(found, asCode(inner.code));
  found.message ??=
    asText(e.message) ?? asText(e.Message) ?? asText(legacy?.message) ?? asText(e.description);
  if (typeof e.retryable === 'boolean') found.retryable = e.retryable;
  releaseFields(e);
}

function googleDetails(found: BodyFindings, details: unknown[]): void {
  for (const d of details.slice(0, 10)) {
    if (!isObj(d) || typeof d['@type'] !== 'string') continue;
    const t = d['@type'];
    if (t.endsWith('google.rpc.ErrorInfo')) rankCode(found, asCode(d.reason));
    else if (t.endsWith('google.rpc.RetryInfo')) found.retryAfter ??= asSeconds(d.retryDelay);
  }
}

/** Twilio: five-digit codes whose `20xxx` family mirrors HTTP statuses (20429 = too many requests). */
function twilio(found: BodyFindings, code: number): void {
  const known = TWILIO_CODES.get(code);
  if (known !== undefined) found.cls = known;
  else if (code >= 20400 && code <= 20599) found.cls = classForStatus(code - 20000) ?? undefined;
}

/** Kubernetes `Status`: `reason` is the code (TooManyRequests, Conflict…), `details.retryAfterSeconds` the wait. */
function kubernetesStatus(found: BodyFindings, o: Obj, status: number): void {
  found.failure = found.failure || o.status === 'Failure';
  rankCode(found, o.reason as string, !restatesStatus(o.reason as string, status));
  if (isObj(o.details)) found.retryAfter ??= asSeconds(o.details.retryAfterSeconds);
}

const FAILED_STATUS = new Set([
  'error',
  'fail',
  'failed',
  'failure',
  'ERROR',
  'FAIL',
  'FAILED',
  'Error',
  'Failure',
]);

/**
 * Reads what a parsed JSON body says about a failure. Checks the vendor shapes that carry a
 * stable code; `failure` marks bodies that report an error even under a 2xx status.
 */
export function jsonBodyFindings(body: unknown, status: number): BodyFindings | undefined {
  let o: unknown = body;
  if (Array.isArray(body)) {
    // A top-level array is either batched GraphQL results or a list of errors (Salesforce).
    o = body.find((item) => isObj(item) && (item.errors !== undefined || item.error !== undefined));
    if (o === undefined) {
      if (!body.some((item) => isObj(item) && (item.errorCode !== undefined || item.message !== undefined)))
        return undefined;
      const found = newBodyFindings(false);
      errorList(found, {}, body);
      return found;
    }
  }
  if (!isObj(o)) return undefined;
  const obj: Obj = o;
  const f = bodyFields(obj);
  const err = f.error;

  const result = f.result;
  if (f.jsonrpc !== undefined && isObj(err)) {
    releaseFields(f);
    return jsonRpc(err);
  }
  if (f.jsonrpc !== undefined && isObj(result) && result.isError === true) {
    releaseFields(f);
    return mcpToolError(result);
  }
  const found = newBodyFindings(false);
  if (f.ok === false) {
    found.failure = true;
    const code = asCode(err);
    if (
      code !== undefined &&
      !rankCode(found, code) &&
      (code.startsWith('invalid_') || code.startsWith('missing_'))
    )
      found.cls = 'validation';
  }
  if (Array.isArray(f.errors) && f.errors.length > 0) errorList(found, obj, f.errors);
  if (isObj(err)) errorObject(found, err, status);
  else if (typeof err === 'string' && err !== '') {
    found.failure = true;
    rankCode(found, asCode(err));
    found.message ??= asText(f.error_description) ?? asText(f.message) ?? err;
  }
  if (typeof f.__type === 'string') {
    found.failure = true;
    rankCode(found, awsErrorName(f.__type));
  }
  const code = f.code ?? f.Code;
  if (typeof code === 'number' && code >= 20000 && code < 100000 && typeof f.more_info === 'string') {
    found.named ??= String(code);
    twilio(found, code);
  } else if (typeof code === 'string') rankCode(found, code, !restatesStatus(code, status));
  if (f.kind === 'Status' && typeof f.reason === 'string') kubernetesStatus(found, obj, status);
  rankCode(found, asCode(f.errorType) ?? asCode(f.errorCode));
  if (typeof f.debug_id === 'string') rankCode(found, asCode(f.name), false); // PayPal: name is a category

  found.message ??=
    asText(f.message) ??
    asText(f.Message) ??
    asText(f.detail) ??
    asText(f.title) ??
    asText(f.error_message) ??
    asText(f.errorMessage) ??
    asText(f.msg) ??
    asText(f.description) ??
    asText(f.errorSummary) ?? // Okta
    (Array.isArray(f.errorMessages) ? asText(f.errorMessages[0]) : undefined); // Jira
  if (f.success === false || (typeof f.status === 'string' && FAILED_STATUS.has(f.status)))
    found.failure = true;
  if (typeof f.retryable === 'boolean') found.retryable = f.retryable;
  found.retryAfter ??= asSeconds(f.retry_after ?? f.retryAfter);
  if (isObj(f.parameters)) found.retryAfter ??= asSeconds(f.parameters.retry_after); // Telegram
  releaseFields(f);
  return found;
}
