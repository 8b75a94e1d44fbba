/**
 * An HTTP status a message states, for errors and spans that kept only the text: a tool's
 * `HTTP 429 Too Many Requests`, axios's "Request failed with status code 503", got's "Response code
 * 404 (Not Found)", fetch wrappers' "status 401", a bare "422 Unprocessable Entity". Only failure
 * statuses (4xx, 5xx), and only where the text names it as a status (a word before it, or its
 * reason phrase after it), so that a port, a count or an id is never read as one.
 */
const STATUS_WORDED =
  /\b(?:HTTP(?:\/\d(?:\.\d)?)?(?:[ -]?(?:error|status))?|status(?:[ _-]?code)?|response code|error code)\s*[:=]?\s*\(?([45]\d\d)\b/i;
const STATUS_PHRASED =
  /\b([45]\d\d)[ :-]+\(?(?:Bad Request|Unauthorized|Payment Required|Forbidden|Not Found|Method Not Allowed|Not Acceptable|Request Timeout|Conflict|Gone|Precondition Failed|Payload Too Large|Unprocessable (?:Entity|Content)|Locked|Too Many Requests|Internal Server Error|Not Implemented|Bad Gateway|Service Unavailable|Gateway Timeout)\b/i;

export function httpStatusInText(text: string): number | undefined {
  const m = STATUS_WORDED.exec(text) ?? STATUS_PHRASED.exec(text);
  return m === null ? undefined : Number(m[1]);
}

/**
 * A wait the text states: "retry after 2s", "Retry-After: 30", "retry in 1.5 seconds", "try again
 * in 500 ms". Seconds; undefined when it states none.
 */
const RETRY_AFTER_TEXT =
  /\b(?:retry[- ]after|retry in|try again in)\s*[:=]?\s*(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)?\b/i;

export function retryAfterInText(text: string): number | undefined {
  const m = RETRY_AFTER_TEXT.exec(text);
  if (m === null) return undefined;
  const n = Number(m[1]);
  return m[2] !== undefined && /^m/i.test(m[2]) ? n / 1000 : n;
}
