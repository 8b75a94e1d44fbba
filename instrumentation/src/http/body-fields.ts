/**
 * The members of a JSON error object that the classifier reads, gathered in one pass: the body's
 * top-level object and its `{ error: { … } }` object (Google, Stripe, OpenAI, Anthropic, Azure,
 * Meta) are read the same way, into the same shape.
 *
 * Bodies come in dozens of vendor shapes, so reading ~40 named members one by one hits
 * megamorphic property lookups, most of them misses. A parsed JSON object (prototype
 * `Object.prototype`, only own enumerable data properties) yields the same values from one walk
 * over its keys; anything else (class instances, null-prototype objects, proxies) is read
 * member by member, as before.
 */

type Obj = Record<string, unknown>;

/**
 * Members of an error object, top-level or nested. Every field exists from the start and both
 * levels share the class: one hidden class, one setter, so every read of them stays monomorphic.
 */
export class BodyFields {
  error: unknown = undefined;
  errors: unknown = undefined;
  jsonrpc: unknown = undefined;
  result: unknown = undefined;
  ok: unknown = undefined;
  __type: unknown = undefined;
  code: unknown = undefined;
  Code: unknown = undefined;
  more_info: unknown = undefined;
  kind: unknown = undefined;
  reason: unknown = undefined;
  errorType: unknown = undefined;
  errorCode: unknown = undefined;
  debug_id: unknown = undefined;
  name: unknown = undefined;
  message: unknown = undefined;
  Message: unknown = undefined;
  detail: unknown = undefined;
  title: unknown = undefined;
  error_description: unknown = undefined;
  error_message: unknown = undefined;
  errorMessage: unknown = undefined;
  msg: unknown = undefined;
  description: unknown = undefined;
  errorSummary: unknown = undefined;
  errorMessages: unknown = undefined;
  success: unknown = undefined;
  status: unknown = undefined;
  retryable: unknown = undefined;
  retry_after: unknown = undefined;
  retryAfter: unknown = undefined;
  parameters: unknown = undefined;
  fbtrace_id: unknown = undefined;
  type: unknown = undefined;
  details: unknown = undefined;
  decline_code: unknown = undefined;
  innererror: unknown = undefined;
  innerError: unknown = undefined;

  /** Every member back to undefined, for reuse. */
  clear(): void {
    this.error = undefined;
    this.errors = undefined;
    this.jsonrpc = undefined;
    this.result = undefined;
    this.ok = undefined;
    this.__type = undefined;
    this.code = undefined;
    this.Code = undefined;
    this.more_info = undefined;
    this.kind = undefined;
    this.reason = undefined;
    this.errorType = undefined;
    this.errorCode = undefined;
    this.debug_id = undefined;
    this.name = undefined;
    this.message = undefined;
    this.Message = undefined;
    this.detail = undefined;
    this.title = undefined;
    this.error_description = undefined;
    this.error_message = undefined;
    this.errorMessage = undefined;
    this.msg = undefined;
    this.description = undefined;
    this.errorSummary = undefined;
    this.errorMessages = undefined;
    this.success = undefined;
    this.status = undefined;
    this.retryable = undefined;
    this.retry_after = undefined;
    this.retryAfter = undefined;
    this.parameters = undefined;
    this.fbtrace_id = undefined;
    this.type = undefined;
    this.details = undefined;
    this.decline_code = undefined;
    this.innererror = undefined;
    this.innerError = undefined;
  }
}

/** Assigns `f[key]` when `key` is one of BodyFields' members; other keys are ignored. */
function setField(f: BodyFields, key: string, v: unknown): void {
  switch (key) {
    case 'error':
      f.error = v;
      return;
    case 'errors':
      f.errors = v;
      return;
    case 'jsonrpc':
      f.jsonrpc = v;
      return;
    case 'result':
      f.result = v;
      return;
    case 'ok':
      f.ok = v;
      return;
    case '__type':
      f.__type = v;
      return;
    case 'code':
      f.code = v;
      return;
    case 'Code':
      f.Code = v;
      return;
    case 'more_info':
      f.more_info = v;
      return;
    case 'kind':
      f.kind = v;
      return;
    case 'reason':
      f.reason = v;
      return;
    case 'errorType':
      f.errorType = v;
      return;
    case 'errorCode':
      f.errorCode = v;
      return;
    case 'debug_id':
      f.debug_id = v;
      return;
    case 'name':
      f.name = v;
      return;
    case 'message':
      f.message = v;
      return;
    case 'Message':
      f.Message = v;
      return;
    case 'detail':
      f.detail = v;
      return;
    case 'title':
      f.title = v;
      return;
    case 'error_description':
      f.error_description = v;
      return;
    case 'error_message':
      f.error_message = v;
      return;
    case 'errorMessage':
      f.errorMessage = v;
      return;
    case 'msg':
      f.msg = v;
      return;
    case 'description':
      f.description = v;
      return;
    case 'errorSummary':
      f.errorSummary = v;
      return;
    case 'errorMessages':
      f.errorMessages = v;
      return;
    case 'success':
      f.success = v;
      return;
    case 'status':
      f.status = v;
      return;
    case 'retryable':
      f.retryable = v;
      return;
    case 'retry_after':
      f.retry_after = v;
      return;
    case 'retryAfter':
      f.retryAfter = v;
      return;
    case 'parameters':
      f.parameters = v;
      return;
    case 'fbtrace_id':
      f.fbtrace_id = v;
      return;
    case 'type':
      f.type = v;
      return;
    case 'details':
      f.details = v;
      return;
    case 'decline_code':
      f.decline_code = v;
      return;
    case 'innererror':
      f.innererror = v;
      return;
    case 'innerError':
      f.innerError = v;
      return;
  }
}

const FIELD_KEYS = Object.keys(new BodyFields());

/**
 * Spare BodyFields: a JSON body needs one or two per call (its top-level object, its `error`),
 * and each is wide, so reusing them keeps the classifier from feeding the young generation.
 * A getter inside a body may classify another response meanwhile: the pool simply grows.
 */
const SPARE: BodyFields[] = [];

/** The BodyFields of a body's top-level object or of its `error` object; give it back with releaseFields. */
export function bodyFields(o: Obj): BodyFields {
  const f = SPARE.pop() ?? new BodyFields();
  if (Object.getPrototypeOf(o) === Object.prototype) {
    // for-in walks V8's enum cache without building a key array (a third cheaper than
    // Object.keys here). It would also list enumerable members a polluted Object.prototype
    // lends, which the member-by-member read below sees too, so both paths still agree.
    for (const key in o) setField(f, key, o[key]);
  } else {
    for (const key of FIELD_KEYS) setField(f, key, o[key]);
  }
  return f;
}

/** Clears `f` and keeps it for the next body; `f` must not be read afterwards. */
export function releaseFields(f: BodyFields): void {
  f.clear();
  if (SPARE.length < 8) SPARE.push(f);
}
