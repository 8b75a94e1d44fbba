import { SPAN_SHAPES, type SpanShape } from './span-shapes.js';

/**
 * Span shapes for the counting rules' parity (counting-rules-parity.test.ts): every shape of
 * span-shapes.ts, plus the ones the call, role, attempt and dependency rules branch on: URL forms,
 * databases, RPC and AWS services, messaging destinations, checkouts and transport requests, the
 * older kind spelling, attempt counts as SDKs write them, a name past 200 characters.
 */
export interface CountShape {
  id: string;
  /** The span name (what faultline_call_role reads for connects); default the id. */
  name?: string;
  kind: SpanShape['kind'] | 'Consumer' | 'SPAN_KIND_CLIENT' | 'SPAN_KIND_SERVER' | 'SPAN_KIND_INTERNAL';
  attrs: Record<string, string>;
  /** Default: 'Error' when the span carries a class, else 'Unset'. */
  status?: 'Unset' | 'Ok' | 'Error' | 'STATUS_CODE_ERROR';
}

const pg = { 'db.system': 'postgresql', 'db.name': 'shop' };
const longHost = `${'ünïcode-'.repeat(30)}.example.com`;

const EXTRA: CountShape[] = [
  // HTTP: how the dependency is read from the URL when no server.address says it.
  {
    id: 'url-userinfo-port',
    kind: 'Client',
    attrs: { 'http.method': 'GET', 'http.url': 'https://user:pw@api.example.com:8443/v1?q=1' },
  },
  {
    id: 'url-default-port-443',
    kind: 'Client',
    attrs: { 'http.request.method': 'GET', 'url.full': 'https://api.example.com:443/x' },
  },
  {
    id: 'url-default-port-80',
    kind: 'Client',
    attrs: { 'http.request.method': 'GET', 'url.full': 'http://api.example.com:80' },
  },
  {
    id: 'url-ipv6',
    kind: 'Client',
    attrs: { 'http.request.method': 'GET', 'url.full': 'http://[::1]:9090/metrics' },
  },
  {
    id: 'url-ipv6-no-port',
    kind: 'Client',
    attrs: { 'http.request.method': 'GET', 'url.full': 'http://[fe80::1]/' },
  },
  {
    id: 'url-single-label-host',
    kind: 'Client',
    attrs: { 'http.method': 'POST', 'http.url': 'http://inventory:8080#frag' },
  },
  {
    id: 'url-query-only',
    kind: 'Client',
    attrs: { 'http.method': 'GET', 'http.url': 'http://inventory?x=1' },
  },
  {
    id: 'url-template',
    kind: 'Client',
    attrs: {
      'http.request.method': 'GET',
      'url.full': 'http://users:3000/users/42',
      'url.template': '/users/{id}',
    },
  },
  {
    id: 'url-not-absolute',
    kind: 'Client',
    attrs: { 'http.method': 'GET', 'http.url': '/relative/path', 'net.peer.name': 'fallback-peer' },
  },
  {
    id: 'url-no-scheme',
    kind: 'Client',
    attrs: { 'http.method': 'GET', 'http.url': 'api.example.com:8080/x' },
  },
  {
    id: 'url-port-too-long',
    kind: 'Client',
    attrs: { 'http.method': 'GET', 'http.url': 'http://api.example.com:123456/x' },
  },
  {
    id: 'url-full-over-http-url',
    kind: 'Client',
    attrs: { 'http.request.method': 'GET', 'url.full': 'http://a.example/', 'http.url': 'http://b.example/' },
  },
  {
    id: 'server-address-port-template',
    kind: 'Client',
    attrs: {
      'http.request.method': 'GET',
      'server.address': 'pay.example',
      'server.port': '8443',
      'url.template': '/charges/{id}',
      'url.full': 'https://pay.example:8443/charges/9',
    },
  },
  {
    id: 'server-address-port-443',
    kind: 'Client',
    attrs: { 'http.request.method': 'GET', 'server.address': 'pay.example', 'server.port': '443' },
  },
  {
    id: 'peer-service-wins',
    kind: 'Client',
    attrs: {
      'peer.service': 'payments',
      'http.request.method': 'GET',
      'server.address': 'pay.example',
      'db.system': 'redis',
    },
  },
  {
    id: 'server-span-no-dependency',
    kind: 'Server',
    attrs: { 'http.request.method': 'GET', 'server.address': 'shop.local', 'server.port': '8080' },
  },
  {
    id: 'server-span-old-kind',
    kind: 'SPAN_KIND_SERVER',
    attrs: { 'http.method': 'GET', 'peer.service': 'x' },
  },
  {
    id: 'long-host',
    kind: 'Client',
    attrs: { 'http.request.method': 'GET', 'server.address': longHost, 'server.port': '8080' },
  },
  // Databases.
  {
    id: 'db-system-name-namespace',
    kind: 'Client',
    attrs: { 'db.system.name': 'postgresql', 'db.namespace': 'orders', 'db.name': 'old' },
  },
  { id: 'db-system-only', kind: 'Client', attrs: { 'db.system': 'redis' } },
  {
    id: 'db-namespace-trailing-spaces',
    kind: 'Client',
    attrs: { 'db.system': 'mysql', 'db.name': 'shop  ' },
  },
  { id: 'db-empty-system', kind: 'Client', attrs: { 'db.system': '', 'server.address': 'db.local' } },
  // RPC and AWS.
  {
    id: 'rpc-service-no-method',
    kind: 'Client',
    attrs: { 'rpc.system': 'grpc', 'rpc.service': 'shop.Cart' },
  },
  {
    id: 'rpc-system-name-aws',
    kind: 'Client',
    attrs: { 'rpc.system.name': 'aws-api', 'rpc.service': 'SQS', 'rpc.method': 'SendMessage' },
  },
  // Messaging.
  {
    id: 'messaging-destination',
    kind: 'Producer',
    attrs: { 'messaging.system': 'kafka', 'messaging.destination.name': 'orders' },
  },
  {
    id: 'messaging-temporary',
    kind: 'Client',
    attrs: {
      'messaging.system': 'rabbitmq',
      'messaging.destination.name': 'amq.gen-x1',
      'messaging.destination.temporary': 'true',
    },
  },
  {
    id: 'messaging-template',
    kind: 'Consumer',
    attrs: {
      'messaging.system': 'nats',
      'messaging.destination.name': 'orders.42',
      'messaging.destination.template': 'orders.{id}',
    },
  },
  { id: 'messaging-destination-only', kind: 'Client', attrs: { 'messaging.destination.name': 'jobs' } },
  {
    id: 'messaging-system-only',
    kind: 'Client',
    attrs: { 'messaging.system': 'mqtt', 'faultline.source': 'messaging' },
  },
  // Call roles: checkouts and transport requests.
  { id: 'checkout-by-name', name: 'pg-pool.connect', kind: 'Client', attrs: pg },
  { id: 'checkout-redis', name: 'redis-connect', kind: 'Client', attrs: { 'db.system.name': 'redis' } },
  { id: 'connect-failed', name: 'pg.connect', kind: 'Client', attrs: pg, status: 'Error' },
  {
    id: 'connect-failed-old-status',
    name: 'mysql.connect',
    kind: 'Client',
    attrs: { 'db.system': 'mysql' },
    status: 'STATUS_CODE_ERROR',
  },
  {
    id: 'connect-classified',
    name: 'connect',
    kind: 'Client',
    attrs: { 'db.system': 'redis', 'faultline.class': 'transient' },
  },
  { id: 'connect-without-db', name: 'connect', kind: 'Client', attrs: { 'net.peer.name': 'cache' } },
  {
    id: 'role-checkout',
    name: 'acquire',
    kind: 'Client',
    attrs: { ...pg, 'faultline.call_role': 'checkout' },
  },
  {
    id: 'role-transport',
    name: 'POST',
    kind: 'Client',
    attrs: {
      'http.request.method': 'POST',
      'faultline.call_role': 'transport',
      'faultline.class': 'rate_limit',
    },
    status: 'Error',
  },
  // Kinds and sources.
  {
    id: 'old-kind-client',
    kind: 'SPAN_KIND_CLIENT',
    attrs: { 'http.method': 'GET', 'http.url': 'http://x.example:81/' },
  },
  {
    id: 'old-kind-internal-source',
    kind: 'SPAN_KIND_INTERNAL',
    attrs: { 'faultline.source': 'db', 'db.system.name': 'sqlite' },
  },
  { id: 'internal-with-source', kind: 'Internal', attrs: { 'faultline.source': 'sdk' } },
  { id: 'consumer-no-source', kind: 'Consumer', attrs: { 'messaging.system': 'kafka' } },
  // Failures: by class, by status alone, an Ok status, an echo.
  { id: 'failed-by-status', kind: 'Client', attrs: { 'http.method': 'GET' }, status: 'Error' },
  { id: 'failed-old-status', kind: 'Server', attrs: { 'http.method': 'GET' }, status: 'STATUS_CODE_ERROR' },
  { id: 'ok-status', kind: 'Client', attrs: { 'http.method': 'GET' }, status: 'Ok' },
  {
    id: 'failed-propagated',
    kind: 'Server',
    attrs: {
      'http.method': 'GET',
      'faultline.class': 'transient',
      'faultline.code': '502',
      'faultline.propagated': 'true',
    },
  },
  {
    id: 'propagated-false',
    kind: 'Client',
    attrs: { 'http.method': 'GET', 'faultline.propagated': 'false' },
  },
  // An SDK's internal attempts as written (faultline.attempts), capped at 100.
  {
    id: 'attempts-3',
    kind: 'Client',
    attrs: {
      'rpc.system': 'aws-api',
      'rpc.service': 'S3',
      'faultline.attempts': '3',
      'faultline.previous_class': 'rate_limit',
    },
  },
  { id: 'attempts-150', kind: 'Client', attrs: { 'faultline.attempts': '150' } },
  { id: 'attempts-plus', kind: 'Client', attrs: { 'faultline.attempts': '+4' } },
  { id: 'attempts-zeros', kind: 'Client', attrs: { 'faultline.attempts': '007' } },
  { id: 'attempts-overflow', kind: 'Client', attrs: { 'faultline.attempts': '70000' } },
  { id: 'attempts-65535', kind: 'Client', attrs: { 'faultline.attempts': '65535' } },
  { id: 'attempts-fraction', kind: 'Client', attrs: { 'faultline.attempts': '2.5' } },
  { id: 'attempts-negative', kind: 'Client', attrs: { 'faultline.attempts': '-2' } },
  { id: 'attempts-text', kind: 'Client', attrs: { 'faultline.attempts': 'three' } },
  { id: 'attempts-space', kind: 'Client', attrs: { 'faultline.attempts': ' 3' } },
];

export const COUNT_SHAPES: readonly CountShape[] = [...SPAN_SHAPES, ...EXTRA];

/** Keys the preload writes as numbers or booleans: the typed form of a stored shape. */
const NUMBERS = new Set([
  'server.port',
  'faultline.attempts',
  'http.response.status_code',
  'http.status_code',
]);
const BOOLEANS = new Set(['faultline.propagated', 'messaging.destination.temporary']);

/**
 * The shape's attributes as a live span carries them (numbers, booleans), where the stored text is
 * a number or a boolean's spelling: the preload's twins read this form, the SQL rules the stored one.
 */
export function typedAttributes(attrs: Record<string, string>): Record<string, unknown> {
  const typed: Record<string, unknown> = { ...attrs };
  for (const [key, value] of Object.entries(attrs)) {
    if (NUMBERS.has(key) && /^[0-9]+$/.test(value) && String(Number(value)) === value)
      typed[key] = Number(value);
    if (BOOLEANS.has(key) && (value === 'true' || value === 'false')) typed[key] = value === 'true';
  }
  return typed;
}
