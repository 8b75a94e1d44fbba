import { type BodyFields, bodyFields, releaseFields } from './body-fields.js';
import { applyCode, asCode, asSeconds, asText, newSignal, type Signal } from './signal.js';
import { classForStatus, restatesStatus } from './status-class.js';
import { TWILIO_CODES } from './vendor-codes.js';

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** `com.amazonaws.dynamodb.v20120810#ThrottlingException` / `ValidationException:http://…` → the bare name. */
export function awsErrorName(type: string): string {
  const hash = type.lastIndexOf('#');
  let name = hash >= 0 ? type.slice(hash + 1) : type;
  const colon = name.indexOf(':');
  if (colon >= 0) name = name.slice(0, colon);
  return name.trim();
}

/** JSON-RPC 2.0 and EIP-1474 codes; numbers in the HTTP range (Alchemy's 429) go through the status table. */
function jsonRpc(sig: Signal, err: Obj): void {
  const code = typeof err.code === 'number' ? err.code : Number(err.code);
  sig.failure = true;
  sig.code = Number.isFinite(code) ? String(code) : asCode(err.code);
  sig.message = asText(err.message);
  if (code >= 400 && code <= 599) sig.cls = classForStatus(code) ?? undefined;
  else if (code === -32700 || code === -32600 || code === -32602 || code === -32000 || code === -32003)
    sig.cls = 'validation';
  else if (code === -32603 || code === -32002) sig.cls = 'transient';
  else if (code === -32005) sig.cls = 'rate_limit';
  else if (code === -32601 || code === -32001 || code === -32004 || code === -32006) sig.cls = 'permanent';
}

/**
 * MCP `tools/call` results with `isError: true`: a failure inside a JSON-RPC success. The text is
 * free-form tool output, not a typed code, so it is reported but not mined for a class.
 */
function mcpToolError(sig: Signal, result: Obj): void {
  sig.failure = true;
  sig.cls = 'permanent';
  const first = Array.isArray(result.content)
    ? result.content.find((c) => isObj(c) && c.type === 'text')
    : undefined;
  sig.message = isObj(first) ? asText(first.text) : undefined;
}

/** GraphQL `errors[]` (Apollo `extensions.code`, GitHub `type`, AppSync `errorType`) and REST error lists. */
function errorList(sig: Signal, o: Obj, errors: unknown[]): void {
  sig.failure = true;
  const n = Math.min(errors.length, 10);
  for (let i = 0; i < n; i++) {
    const e = errors[i];
    if (!isObj(e)) {
      if (sig.message === undefined) sig.message = asText(e);
      continue;
    }
    const ext = isObj(e.extensions) ? e.extensions : undefined;
    // GitHub REST lists field-level detail here ({ resource, field, code }): that code names a field.
    const fieldLevel = e.field !== undefined || e.resource !== undefined;
    applyCode(
      sig,
      asCode(ext?.code) ??
        asCode(e.type) ??
        asCode(e.errorType) ??
        asCode(e.errorCode) ??
        (fieldLevel ? undefined : (asCode(e.code) ?? asCode(e.reason))),
    );
    applyCode(sig, asCode(e.category), false); // Square: RATE_LIMIT_ERROR, AUTHENTICATION_ERROR
    if (ext !== undefined) sig.retryAfter ??= asSeconds(ext.retryAfter ?? ext.retry_after);
    if (sig.message === undefined) sig.message = asText(e.message) ?? asText(e.detail) ?? asText(e.title);
  }
  if (sig.cls === 'rate_limit') sig.retryAfter ??= shopifyWait(o);
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
function metaGraph(sig: Signal, e: Obj, code: number): void {
  sig.code ??= String(code);
  if (
    code === 4 ||
    code === 17 ||
    code === 32 ||
    code === 341 ||
    code === 613 ||
    (code >= 80001 && code <= 80014)
  )
    sig.cls = 'rate_limit';
  else if (code === 102 || code === 190 || code === 10 || (code >= 200 && code <= 299))
    sig.cls = 'authentication';
  else if (code === 100) sig.cls = 'validation';
  else if (code === 1 || code === 2) sig.cls = 'transient';
  if (e.is_transient === true) sig.retryable = true;
}

/** `{ error: { … } }`: Google, Stripe, OpenAI, Anthropic, Azure ARM/OData, JSON:API-ish bodies. */
function errorObject(sig: Signal, obj: Obj, status: number): void {
  sig.failure = true;
  const e: BodyFields = bodyFields(obj);
  if (typeof e.code === 'number' && (typeof e.fbtrace_id === 'string' || e.type === 'OAuthException')) {
    metaGraph(sig, obj, e.code);
  }
  const legacy = Array.isArray(e.errors) && isObj(e.errors[0]) ? e.errors[0] : undefined;
  applyCode(sig, asCode(legacy?.reason));
  if (Array.isArray(e.details)) googleDetails(sig, e.details);
  const code = asCode(e.code);
  // A code that restates the status (Google's numeric 429, Azure's "TooManyRequests") adds nothing.
  if (code !== undefined) applyCode(sig, code, !restatesStatus(code, status));
  // Google's canonical status is a category: a recognised reason (ErrorInfo, legacy `errors[]`)
  // is more specific and decides (SERVICE_DISABLED under PERMISSION_DENIED is not a credential).
  if (sig.cls === undefined) applyCode(sig, asCode(e.status), false);
  applyCode(sig, asCode(e.type), false);
  applyCode(sig, asCode(e.decline_code), false);
  const inner = isObj(e.innererror) ? e.innererror : isObj(e.innerError) ? e.innerError : undefined;
  if (inner) applyCode(sig, asCode(inner.code));
  sig.message ??= asText(e.message) ?? asText(e.Message) ?? asText(legacy?.message) ?? asText(e.description);
  if (typeof e.retryable === 'boolean') sig.retryable = e.retryable;
  releaseFields(e);
}

function googleDetails(sig: Signal, details: unknown[]): void {
  for (const d of details.slice(0, 10)) {
    if (!isObj(d) || typeof d['@type'] !== 'string') continue;
    const t = d['@type'];
    if (t.endsWith('google.rpc.ErrorInfo')) applyCode(sig, asCode(d.reason));
    else if (t.endsWith('google.rpc.RetryInfo')) sig.retryAfter ??= asSeconds(d.retryDelay);
  }
}

/** Twilio: five-digit codes whose `20xxx` family mirrors HTTP statuses (20429 = too many requests). */
function twilio(sig: Signal, code: number): void {
  const known = TWILIO_CODES.get(code);
  if (known !== undefined) sig.cls = known;
  else if (code >= 20400 && code <= 20599) sig.cls = classForStatus(code - 20000) ?? undefined;
}

/** Kubernetes `Status`: `reason` is the code (TooManyRequests, Conflict…), `details.retryAfterSeconds` the wait. */
function kubernetesStatus(sig: Signal, o: Obj, status: number): void {
  sig.failure = sig.failure || o.status === 'Failure';
  applyCode(sig, o.reason as string, !restatesStatus(o.reason as string, status));
  if (isObj(o.details)) sig.retryAfter ??= asSeconds(o.details.retryAfterSeconds);
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
export function jsonBodySignal(body: unknown, status: number): Signal | undefined {
  const sig = newSignal(false);
  let o: unknown = body;
  if (Array.isArray(body)) {
    // A top-level array is either batched GraphQL results or a list of errors (Salesforce).
    o = body.find((item) => isObj(item) && (item.errors !== undefined || item.error !== undefined));
    if (o === undefined) {
      if (!body.some((item) => isObj(item) && (item.errorCode !== undefined || item.message !== undefined)))
        return undefined;
      errorList(sig, {}, body);
      return sig;
    }
  }
  if (!isObj(o)) return undefined;
  const obj: Obj = o;
  const f = bodyFields(obj);
  const err = f.error;

  if (f.jsonrpc !== undefined && isObj(err)) {
    jsonRpc(sig, err);
    releaseFields(f);
    return sig;
  }
  if (f.jsonrpc !== undefined && isObj(f.result) && f.result.isError === true) {
    mcpToolError(sig, f.result);
    releaseFields(f);
    return sig;
  }
  if (f.ok === false) {
    sig.failure = true;
    const code = asCode(err);
    if (
      code !== undefined &&
      !applyCode(sig, code) &&
      (code.startsWith('invalid_') || code.startsWith('missing_'))
    )
      sig.cls = 'validation';
  }
  if (Array.isArray(f.errors) && f.errors.length > 0) errorList(sig, obj, f.errors);
  if (isObj(err)) errorObject(sig, err, status);
  else if (typeof err === 'string' && err !== '') {
    sig.failure = true;
    applyCode(sig, asCode(err));
    sig.message ??= asText(f.error_description) ?? asText(f.message) ?? err;
  }
  if (typeof f.__type === 'string') {
    sig.failure = true;
    applyCode(sig, awsErrorName(f.__type));
  }
  const code = f.code ?? f.Code;
  if (typeof code === 'number' && code >= 20000 && code < 100000 && typeof f.more_info === 'string') {
    sig.code ??= String(code);
    twilio(sig, code);
  } else if (typeof code === 'string') applyCode(sig, code, !restatesStatus(code, status));
  if (f.kind === 'Status' && typeof f.reason === 'string') kubernetesStatus(sig, obj, status);
  applyCode(sig, asCode(f.errorType) ?? asCode(f.errorCode));
  if (typeof f.debug_id === 'string') applyCode(sig, asCode(f.name), false); // PayPal: name is a category

  sig.message ??=
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
    sig.failure = true;
  if (typeof f.retryable === 'boolean') sig.retryable = f.retryable;
  sig.retryAfter ??= asSeconds(f.retry_after ?? f.retryAfter);
  if (isObj(f.parameters)) sig.retryAfter ??= asSeconds(f.parameters.retry_after); // Telegram
  releaseFields(f);
  return sig;
}
