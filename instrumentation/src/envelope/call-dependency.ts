import { spanKindName } from './counted-call.js';
import { storedText } from './stored-text.js';

/**
 * What a client span calls, the TypeScript twin of faultline_dependency and
 * faultline_call_dependency (sql/schema/006_dependency_function.sql), so that the preload's exact
 * counts name a dependency exactly as the rollups name it from the span (parity:
 * sql/test/counting/counting-rules-parity.test.ts). Most specific first: the service the caller
 * named, a database, an RPC or AWS service and method, a messaging destination, else the HTTP host
 * (+ port when not 80/443) and URL template; never a raw path or id; cut to 200 characters; ''
 * when nothing names it.
 */
type Attrs = Readonly<Record<string, unknown>>;

const MAX_DEPENDENCY_CHARS = 200;
/**
 * faultline_url_host / faultline_url_port: the authority of an absolute URL, read by pattern
 * because ClickHouse's domain() returns '' for a single-label host (http://inventory:8080/…).
 */
const URL_HOST = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]/?#]*\]|[^:/?#]*)/;
const URL_PORT =
  /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(?:\[[^\]/?#]*\]|[^:/?#]*):([0-9]{1,5})(?:[/?#]|$)/;

export function urlHostOf(url: string): string {
  return URL_HOST.exec(url)?.[1] ?? '';
}

export function urlPortOf(url: string): string {
  return URL_PORT.exec(url)?.[1] ?? '';
}

/**
 * The URL's host and port as the dependency names them. Both regexes read no further than the
 * first '/', '?' or '#' after the scheme's '://' (a scheme holds no ':', and no part of the
 * authority they match crosses those), so they give the same answer on that prefix, which repeats
 * across a service's calls where the paths do not: the answer is kept per prefix (a few hundred at
 * most), and a call pays three indexOf and one lookup instead of two regexes.
 */
const MAX_AUTHORITIES = 256;
const authorities = new Map<string, string>();

function urlAuthorityOf(url: string): string {
  const start = url.indexOf('://');
  if (start < 0) return '';
  const from = start + 3;
  let end = url.indexOf('/', from);
  if (end < 0) end = url.length;
  const query = url.indexOf('?', from);
  if (query >= 0 && query < end) end = query;
  const fragment = url.indexOf('#', from);
  if (fragment >= 0 && fragment < end) end = fragment;
  const prefix = end === url.length ? url : url.slice(0, end);
  let named = authorities.get(prefix);
  if (named === undefined) {
    const host = urlHostOf(prefix);
    named = host === '' ? '' : `${host}${portSuffix(urlPortOf(prefix))}`;
    if (authorities.size >= MAX_AUTHORITIES) authorities.clear();
    authorities.set(prefix, named);
  }
  return named;
}

/** faultline_call_dependency: what a span calls, for every kind but SERVER (whose address is its own). */
export function callDependencyOf(kind: string, attrs: Attrs): string {
  return spanKindName(kind) === 'Server' ? '' : dependencyOf(attrs);
}

/** faultline_dependency. */
export function dependencyOf(attrs: Attrs): string {
  const named = uncutDependencyOf(attrs);
  // substringUTF8(…, 1, 200) counts code points; a UTF-16 length within 200 is within it too.
  return named.length <= MAX_DEPENDENCY_CHARS
    ? named
    : Array.from(named).slice(0, MAX_DEPENDENCY_CHARS).join('');
}

function uncutDependencyOf(attrs: Attrs): string {
  const peerService = text(attrs, 'peer.service');
  if (peerService !== '') return peerService;
  const dbSystem = text(attrs, 'db.system.name') || text(attrs, 'db.system');
  if (dbSystem !== '')
    return trimRight(`${dbSystem} ${text(attrs, 'db.namespace') || text(attrs, 'db.name')}`);
  const rpcService = text(attrs, 'rpc.service');
  if (rpcService !== '') {
    const method = text(attrs, 'rpc.method');
    return `${text(attrs, 'rpc.system') === 'aws-api' ? 'aws ' : ''}${rpcService}${method === '' ? '' : `/${method}`}`;
  }
  const messaging = text(attrs, 'messaging.system');
  const destination = text(attrs, 'messaging.destination.name');
  if (messaging !== '' || destination !== '') {
    const named =
      text(attrs, 'messaging.destination.temporary') === 'true'
        ? 'temporary'
        : text(attrs, 'messaging.destination.template') || destination;
    return trimRight(`${messaging} ${named}`);
  }
  const template = text(attrs, 'url.template');
  const templated = template === '' ? '' : ` ${template}`;
  const address = text(attrs, 'server.address');
  if (address !== '') return `${address}${portSuffix(text(attrs, 'server.port'))}${templated}`;
  const authority = urlAuthorityOf(text(attrs, 'url.full') || text(attrs, 'http.url'));
  if (authority !== '') return `${authority}${templated}`;
  return text(attrs, 'net.peer.name');
}

function text(attrs: Attrs, key: string): string {
  return storedText(attrs[key]);
}

/** ':port' unless the port is the scheme's default (80, 443) or absent. */
function portSuffix(port: string): string {
  return port === '' || port === '80' || port === '443' ? '' : `:${port}`;
}

/** ClickHouse's trimRight: trailing spaces only. */
function trimRight(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 32) end--;
  return end === s.length ? s : s.slice(0, end);
}
