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

/** An outbound call: kind Client, named by its id unless `more` gives a name. */
function client(
  id: string,
  attrs: Record<string, string>,
  more: Pick<CountShape, 'name' | 'status'> = {},
): CountShape {
  return { id, ...more, kind: 'Client', attrs };
}
/** An HTTP client call as the old conventions (http.method, http.url) and the stable ones write it. */
const oldHttp = (url: string, method = 'GET') => ({ 'http.method': method, 'http.url': url });
const newHttp = (url: string) => ({ 'http.request.method': 'GET', 'url.full': url });

const EXTRA: CountShape[] = [
  // HTTP: how the dependency is read from the URL when no server.address says it.
  client('url-userinfo-port', oldHttp('https://user:pw@api.example.com:8443/v1?q=1')),
  client('url-default-port-443', newHttp('https://api.example.com:443/x')),
  client('url-default-port-80', newHttp('http://api.example.com:80')),
  client('url-ipv6', newHttp('http://[::1]:9090/metrics')),
  client('url-ipv6-no-port', newHttp('http://[fe80::1]/')),
  client('url-single-label-host', oldHttp('http://inventory:8080#frag', 'POST')),
  client('url-query-only', oldHttp('http://inventory?x=1')),
  client('url-template', { ...newHttp('http://users:3000/users/42'), 'url.template': '/users/{id}' }),
  client('url-not-absolute', { ...oldHttp('/relative/path'), 'net.peer.name': 'fallback-peer' }),
  client('url-no-scheme', oldHttp('api.example.com:8080/x')),
  client('url-port-too-long', oldHttp('http://api.example.com:123456/x')),
  client('url-full-over-http-url', { ...newHttp('http://a.example/'), 'http.url': 'http://b.example/' }),
  client('server-address-port-template', {
    'http.request.method': 'GET',
    'server.address': 'pay.example',
    'server.port': '8443',
    'url.template': '/charges/{id}',
    'url.full': 'https://pay.example:8443/charges/9',
  }),
  client('server-address-port-443', {
    'http.request.method': 'GET',
    'server.address': 'pay.example',
    'server.port': '443',
  }),
  client('peer-service-wins', {
    'peer.service': 'payments',
    'http.request.method': 'GET',
    'server.address': 'pay.example',
    'db.system': 'redis',
  }),
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
  client('long-host', { 'http.request.method': 'GET', 'server.address': longHost, 'server.port': '8080' }),
  // Databases.
  client('db-system-name-namespace', {
    'db.system.name': 'postgresql',
    'db.namespace': 'orders',
    'db.name': 'old',
  }),
  client('db-system-only', { 'db.system': 'redis' }),
  client('db-namespace-trailing-spaces', { 'db.system': 'mysql', 'db.name': 'shop  ' }),
  client('db-empty-system', { 'db.system': '', 'server.address': 'db.local' }),
  // RPC and AWS.
  client('rpc-service-no-method', { 'rpc.system': 'grpc', 'rpc.service': 'shop.Cart' }),
  client('rpc-system-name-aws', {
    'rpc.system.name': 'aws-api',
    'rpc.service': 'SQS',
    'rpc.method': 'SendMessage',
  }),
  // Messaging.
  {
    id: 'messaging-destination',
    kind: 'Producer',
    attrs: { 'messaging.system': 'kafka', 'messaging.destination.name': 'orders' },
  },
  client('messaging-temporary', {
    'messaging.system': 'rabbitmq',
    'messaging.destination.name': 'amq.gen-x1',
    'messaging.destination.temporary': 'true',
  }),
  {
    id: 'messaging-template',
    kind: 'Consumer',
    attrs: {
      'messaging.system': 'nats',
      'messaging.destination.name': 'orders.42',
      'messaging.destination.template': 'orders.{id}',
    },
  },
  client('messaging-destination-only', { 'messaging.destination.name': 'jobs' }),
  client('messaging-system-only', { 'messaging.system': 'mqtt', 'faultline.source': 'messaging' }),
  // Call roles: checkouts and transport requests.
  client('checkout-by-name', pg, { name: 'pg-pool.connect' }),
  client('checkout-redis', { 'db.system.name': 'redis' }, { name: 'redis-connect' }),
  client('connect-failed', pg, { name: 'pg.connect', status: 'Error' }),
  client(
    'connect-failed-old-status',
    { 'db.system': 'mysql' },
    { name: 'mysql.connect', status: 'STATUS_CODE_ERROR' },
  ),
  client('connect-classified', { 'db.system': 'redis', 'faultline.class': 'transient' }, { name: 'connect' }),
  client('connect-without-db', { 'net.peer.name': 'cache' }, { name: 'connect' }),
  client('role-checkout', { ...pg, 'faultline.call_role': 'checkout' }, { name: 'acquire' }),
  client(
    'role-transport',
    { 'http.request.method': 'POST', 'faultline.call_role': 'transport', 'faultline.class': 'rate_limit' },
    { name: 'POST', status: 'Error' },
  ),
  // Kinds and sources.
  { id: 'old-kind-client', kind: 'SPAN_KIND_CLIENT', attrs: oldHttp('http://x.example:81/') },
  {
    id: 'old-kind-internal-source',
    kind: 'SPAN_KIND_INTERNAL',
    attrs: { 'faultline.source': 'db', 'db.system.name': 'sqlite' },
  },
  { id: 'internal-with-source', kind: 'Internal', attrs: { 'faultline.source': 'sdk' } },
  { id: 'consumer-no-source', kind: 'Consumer', attrs: { 'messaging.system': 'kafka' } },
  // Failures: by class, by status alone, an Ok status, an echo.
  client('failed-by-status', { 'http.method': 'GET' }, { status: 'Error' }),
  { id: 'failed-old-status', kind: 'Server', attrs: { 'http.method': 'GET' }, status: 'STATUS_CODE_ERROR' },
  client('ok-status', { 'http.method': 'GET' }, { status: 'Ok' }),
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
  client('propagated-false', { 'http.method': 'GET', 'faultline.propagated': 'false' }),
  // An SDK's internal attempts as written (faultline.attempts), capped at 100.
  client('attempts-3', {
    'rpc.system': 'aws-api',
    'rpc.service': 'S3',
    'faultline.attempts': '3',
    'faultline.previous_class': 'rate_limit',
  }),
  ...(
    [
      ['attempts-150', '150'],
      ['attempts-plus', '+4'],
      ['attempts-zeros', '007'],
      ['attempts-overflow', '70000'],
      ['attempts-65535', '65535'],
      ['attempts-fraction', '2.5'],
      ['attempts-negative', '-2'],
      ['attempts-text', 'three'],
      ['attempts-space', ' 3'],
    ] as const
  ).map(([id, attempts]) => client(id, { 'faultline.attempts': attempts })),
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
