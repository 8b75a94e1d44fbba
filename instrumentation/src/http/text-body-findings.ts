import { type BodyFindings, newBodyFindings } from './body-findings.js';
import { rankCode } from './vendor-codes.js';

function between(text: string, open: string, close: string): string | undefined {
  const i = text.indexOf(open);
  if (i < 0) return undefined;
  const start = i + open.length;
  const end = text.indexOf(close, start);
  if (end < 0) return undefined;
  const value = text.slice(start, end).trim();
  return value === '' ? undefined : value;
}

/** Cloudflare's plain-text edge errors: `error code: 1015` (rate limited), `1020` (access denied). */
const CLOUDFLARE = new Map([
  ['1015', 'rate_limit'],
  ['1020', 'authentication'],
  ['1006', 'authentication'],
  ['1007', 'authentication'],
  ['1008', 'authentication'],
  ['1012', 'authentication'],
] as const);

/**
 * Non-JSON bodies: AWS/Azure XML (`<Code>SlowDown</Code>`, S3's 200-with-`<Error>`), HTML error
 * pages (the `<title>`), Cloudflare edge codes and plain text (its first line as the message).
 */
export function textBodyFindings(text: string): BodyFindings | undefined {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) <= 32) i++;
  if (i === text.length) return undefined;
  if (text.charCodeAt(i) === 60 /* < */) {
    const code = between(text, '<Code>', '</Code>');
    if (code !== undefined) {
      const found = newBodyFindings(text.indexOf('<Error') >= 0);
      rankCode(found, code);
      found.message = between(text, '<Message>', '</Message>');
      return found;
    }
    const title = between(text, '<title>', '</title>') ?? between(text, '<TITLE>', '</TITLE>');
    return title === undefined ? undefined : newBodyFindings(false, title);
  }
  if (text.startsWith('error code: ', i)) {
    const code = text.slice(i + 12, i + 16);
    const cls = CLOUDFLARE.get(code as '1015');
    const found = newBodyFindings(false, `Cloudflare error ${code}`);
    found.named = code;
    if (cls) found.cls = cls;
    return found;
  }
  const nl = text.indexOf('\n', i);
  const line = (nl < 0 ? text.slice(i) : text.slice(i, nl)).trim();
  return line === '' ? undefined : newBodyFindings(false, line);
}
