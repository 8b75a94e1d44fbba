/**
 * OTLP/JSON lets int64 fields (span and event times, `intValue`) be sent as JSON numbers, and
 * `JSON.parse` turns a 19-digit one into the nearest double: 1764600000123456789 becomes
 * …456768. Node 20's revivers get no source text, so before parsing, every integer literal of 16 or
 * more digits (2^53 has 16) that is an object member's value is wrapped in quotes; the decoders
 * accept int64 as strings, and a double field given such a literal parses it to the same double as
 * before. (Every int64 in OTLP is a member value; numbers in arrays are left alone.)
 *
 * Only number tokens are touched, found by a scan that steps over strings with `indexOf` (an escaped
 * quote is one preceded by an odd run of backslashes; `\u0022` is not a quote at all), so no text
 * inside a string changes, however hostile. Invalid JSON stays invalid: only a literal right after
 * a `:` is quoted (never a key), and not one with a leading zero, a fraction or an exponent.
 */

// A member value of 16+ digits. Texts without one — every body that sends int64 as strings, as the
// spec's examples and the OpenTelemetry SDKs do — are returned untouched after this one search
// (about 2.5 GB/s; the scan below runs only when it matches).
const MAYBE_LONG_INTEGER = /:\s*-?[1-9]\d{15}/;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

const isDigit = (c: number) => c >= ZERO && c <= NINE;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** `text` with member values that are integer literals of 16+ digits quoted (the same string when there are none). */
export function quoteLongIntegers(text: string): string {
  if (!MAYBE_LONG_INTEGER.test(text)) return text;
  const parts: string[] = [];
  let copied = 0;
  let afterColon = false;
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = afterString(text, i);
      afterColon = false;
    } else if (c === MINUS || isDigit(c)) {
      const digits = c === MINUS ? i + 1 : i;
      let end = digits;
      while (end < n && isDigit(text.charCodeAt(end))) end++;
      const next = end < n ? text.charCodeAt(end) : -1;
      const integer = next !== 0x2e && next !== 0x65 && next !== 0x45; // not . e E
      if (afterColon && integer && end - digits >= 16 && text.charCodeAt(digits) !== ZERO) {
        parts.push(text.slice(copied, i), '"', text.slice(i, end), '"');
        copied = end;
      }
      i = afterNumber(text, Math.max(end, i + 1));
      afterColon = false;
    } else {
      if (c === COLON) afterColon = true;
      else if (!isSpace(c)) afterColon = false;
      i++;
    }
  }
  if (copied === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}

/** The index after the string that opens at `start`, or the text's end when it never closes. */
function afterString(text: string, start: number): number {
  let q = text.indexOf('"', start + 1);
  while (q !== -1) {
    let backslashes = 0;
    for (let k = q - 1; text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    q = text.indexOf('"', q + 1);
  }
  return text.length;
}

/** The index after a number's fraction and exponent, given the end of its integer digits. */
function afterNumber(text: string, end: number): number {
  const n = text.length;
  let i = end;
  if (text.charCodeAt(i) === 0x2e) {
    i++;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 0x2b || sign === MINUS) i++;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}
