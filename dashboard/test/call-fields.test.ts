import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALL_ATTRIBUTE_KEYS,
  type CallAttributes,
  callFieldsOf,
  callName,
  urlPathOf,
} from '../src/lib/span-call-name';

// request_spans.sql returns a call's raw attributes (call_attributes, a fixed key list) and the
// page builds its fields (callFieldsOf): the rules the query once applied itself, now in
// TypeScript. Ground truth below, then the builder beside that former SQL expression (frozen here)
// over the same stored spans, and the key list of the query beside the keys the builder reads.

const REQUEST_SPANS_SQL = readFileSync(
  new URL('../../sql/queries/dashboard/request_spans.sql', import.meta.url),
  'utf8',
);

describe('callFieldsOf: ground truth', () => {
  it('keeps the path alone of an absolute URL: never its credentials, host, query or fragment', () => {
    const fields = callFieldsOf('Client', {
      'http.request.method': 'GET',
      'url.full': 'https://alice:s3cret@api.example.com:8443/v1/orders/7?api_key=sk_live_1#frag',
      'server.address': 'api.example.com',
      'server.port': '8443',
    });
    expect(fields).toEqual({ method: 'GET', path: '/v1/orders/7', dependency: 'api.example.com:8443' });
    expect(callName('Client', 'GET', fields)).toBe('GET /v1/orders/7');
    for (const secret of ['alice', 's3cret', 'sk_live_1', 'frag', 'api_key'])
      expect(JSON.stringify({ ...fields, dependency: '' })).not.toContain(secret);
  });

  it('keeps the path of a request target without its query string', () => {
    expect(callFieldsOf('Server', { 'http.method': 'post', 'http.target': '/a/b?x=1' })).toEqual({
      method: 'post',
      path: '/a/b',
    });
    // url.path as sent, cut at a '?' or '#' all the same.
    expect(callFieldsOf('Server', { 'url.path': '/p?token=1#f' }).path).toBe('/p');
  });

  it('names a temporary messaging destination (temporary), never its generated name', () => {
    const fields = callFieldsOf('Producer', {
      'messaging.system': 'rabbitmq',
      'messaging.operation.name': 'publish',
      'messaging.destination.name': 'amq.gen-JzTY20BRgKO',
      'messaging.destination.temporary': 'true',
    });
    expect(fields).toEqual({
      'messaging.operation': 'publish',
      'messaging.destination': '(temporary)',
      dependency: 'rabbitmq temporary',
    });
  });

  it('bounds the statement to its first 300 characters', () => {
    const statement = `SELECT ${'x, '.repeat(2000)}y FROM orders`;
    const fields = callFieldsOf('Client', {
      'db.system.name': 'postgresql',
      'db.namespace': 'shop',
      'db.query.text': statement,
    });
    expect(fields['db.statement']).toBe(statement.slice(0, 300));
    expect(fields.dependency).toBe('postgresql shop');
  });

  it('names the dependency as the rollups do, and none for a SERVER span', () => {
    expect(
      callFieldsOf('SPAN_KIND_CLIENT', { 'db.system.name': 'postgresql', 'db.namespace': 'shop' }).dependency,
    ).toBe('postgresql shop');
    expect(
      callFieldsOf('Client', {
        'http.request.method': 'GET',
        'url.full': 'https://api.example.com:8443/v1?q=1',
        'server.address': 'api.example.com',
        'server.port': '8443',
      }).dependency,
    ).toBe('api.example.com:8443');
    const server = { 'server.address': 'api.example.com', 'server.port': '8443', 'url.path': '/v1' };
    expect(callFieldsOf('Server', server).dependency).toBeUndefined();
    expect(callFieldsOf('SPAN_KIND_SERVER', server)).toEqual({ path: '/v1' });
  });

  it('counts code points, as substringUTF8 does', () => {
    const method = '😀'.repeat(25);
    expect(callFieldsOf('Client', { 'http.request.method': method }).method).toBe('😀'.repeat(20));
  });

  it.each([
    ['/a/b?x=1', '/a/b'],
    ['http://u:p@h:80/a/b?x=1#f', '/a/b'],
    ['h/a/b', '/a/b'],
    ['file:///etc/x?y', '/etc/x'],
    ['http://[::1]:8080/p', '/p'],
    ['https://h/', '/'],
    ['http://h', ''],
    ['http://h?x=1', ''],
    ['*', ''],
    ['', ''],
    // Where ClickHouse's path() would start inside the query string or fragment.
    ['http://h?next=/account/sk_live_1', ''],
    ['http://h#/route/7', ''],
    ['?x/y', ''],
  ])('urlPathOf(%j) is %j', (url, path) => {
    expect(urlPathOf(url)).toBe(path);
  });
});

describe('request_spans call_attributes', () => {
  it('returns exactly the keys callFieldsOf reads', () => {
    const list = /has\(\[([^\]]*)\], k\)/.exec(REQUEST_SPANS_SQL)?.[1];
    expect(list, 'the key list of call_attributes').toBeDefined();
    const keys = [...list!.matchAll(/'([^']+)'/g)].map((m) => m[1]);
    expect([...keys].sort()).toEqual([...CALL_ATTRIBUTE_KEYS].sort());
    expect(new Set(keys).size).toBe(keys.length);
  });
});

// ---------------------------------------------------------------------------------------------
// Beside the former SQL: the `call` column request_spans.sql computed before call_attributes.

const FORMER_CALL_SQL = `mapFilter((k, v) -> v != '', map(
    'method', substringUTF8(if(SpanAttributes['http.request.method'] != '', SpanAttributes['http.request.method'], SpanAttributes['http.method']), 1, 20),
    'path', substringUTF8(replaceRegexpOne(multiIf(
        SpanAttributes['url.path'] != '', SpanAttributes['url.path'],
        SpanAttributes['http.target'] != '', path(SpanAttributes['http.target']),
        SpanAttributes['url.full'] != '', path(SpanAttributes['url.full']),
        path(SpanAttributes['http.url'])), '[?#].*', ''), 1, 500),
    'route', substringUTF8(SpanAttributes['http.route'], 1, 500),
    'db.summary', substringUTF8(SpanAttributes['db.query.summary'], 1, 200),
    'db.operation', substringUTF8(if(SpanAttributes['db.operation.name'] != '', SpanAttributes['db.operation.name'], SpanAttributes['db.operation']), 1, 100),
    'db.collection', substringUTF8(multiIf(
        SpanAttributes['db.collection.name'] != '', SpanAttributes['db.collection.name'],
        SpanAttributes['db.sql.table'] != '', SpanAttributes['db.sql.table'],
        SpanAttributes['db.mongodb.collection']), 1, 200),
    'db.statement', substringUTF8(if(SpanAttributes['db.query.text'] != '', SpanAttributes['db.query.text'], SpanAttributes['db.statement']), 1, 300),
    'rpc.service', substringUTF8(SpanAttributes['rpc.service'], 1, 200),
    'rpc.method', substringUTF8(SpanAttributes['rpc.method'], 1, 200),
    'messaging.operation', substringUTF8(if(SpanAttributes['messaging.operation.name'] != '', SpanAttributes['messaging.operation.name'], SpanAttributes['messaging.operation']), 1, 100),
    'messaging.destination', substringUTF8(multiIf(
        SpanAttributes['messaging.destination.temporary'] = 'true', '(temporary)',
        SpanAttributes['messaging.destination.name'] != '', SpanAttributes['messaging.destination.name'],
        SpanAttributes['messaging.destination.template']), 1, 200),
    'tool', substringUTF8(if(SpanAttributes['gen_ai.tool.name'] != '', SpanAttributes['gen_ai.tool.name'], SpanAttributes['ai.toolCall.name']), 1, 200),
    'dependency', faultline_call_dependency(SpanKind, SpanAttributes)
  ))`;

interface Shape {
  id: string;
  kind: string;
  attrs: Record<string, string>;
}

const long = (n: number, unit = 'x') => unit.repeat(n);

/** Every branch of the former expression, and its bounds. */
const SHAPES: Shape[] = [
  {
    id: 'http-stable',
    kind: 'Client',
    attrs: {
      'http.request.method': 'GET',
      'url.full': 'https://alice:s3cret@api.example.com:8443/v1/orders/7?api_key=sk_live_1#frag',
      'server.address': 'api.example.com',
      'server.port': '8443',
    },
  },
  {
    id: 'http-old',
    kind: 'SPAN_KIND_CLIENT',
    attrs: { 'http.method': 'POST', 'http.url': 'http://inventory:8080/stock?sku=1' },
  },
  {
    id: 'http-template',
    kind: 'Client',
    attrs: {
      'http.request.method': 'GET',
      'url.full': 'https://api.example.com/users/7',
      'url.template': '/users/{id}',
      'server.address': 'api.example.com',
      'server.port': '443',
    },
  },
  { id: 'http-ipv6', kind: 'Client', attrs: { 'http.method': 'GET', 'url.full': 'http://[::1]:8080/p?x' } },
  { id: 'http-host-only', kind: 'Client', attrs: { 'http.method': 'GET', 'url.full': 'http://h' } },
  { id: 'http-no-scheme', kind: 'Client', attrs: { 'url.full': 'h/a/b?c' } },
  { id: 'http-file', kind: 'Client', attrs: { 'url.full': 'file:///etc/x?y' } },
  {
    id: 'server-target',
    kind: 'Server',
    attrs: {
      'http.method': 'GET',
      'http.target': '/a/b?x=1',
      'http.route': '/a/:b',
      'server.address': 'shop.internal',
    },
  },
  {
    id: 'server-url-path',
    kind: 'SPAN_KIND_SERVER',
    attrs: { 'http.request.method': 'PUT', 'url.path': '/p?token=1#f', 'http.route': long(600, 'r') },
  },
  // http.target is set, so its path ('' here) is the path, not url.full's.
  {
    id: 'target-query-only',
    kind: 'Server',
    attrs: { 'http.target': '?x=1', 'url.full': 'http://h/z', 'http.method': 'OPTIONS' },
  },
  { id: 'target-star', kind: 'Server', attrs: { 'http.target': '*', 'http.method': 'OPTIONS' } },
  { id: 'method-long', kind: 'Client', attrs: { 'http.request.method': long(25, '😀'), 'url.path': '/é' } },
  { id: 'path-long', kind: 'Client', attrs: { 'http.method': 'GET', 'url.full': `http://h/${long(1200)}` } },
  {
    id: 'db-stable',
    kind: 'Client',
    attrs: {
      'db.system.name': 'postgresql',
      'db.namespace': 'shop',
      'db.query.text': `SELECT ${long(3000, 'x, ')}y FROM orders`,
      'db.operation.name': 'SELECT',
      'db.collection.name': 'orders',
      'db.query.summary': 'SELECT orders',
      'server.address': 'db1',
    },
  },
  {
    id: 'db-old',
    kind: 'Client',
    attrs: {
      'db.system': 'mysql',
      'db.name': 'app',
      'db.statement': 'UPDATE users SET a = 1',
      'db.operation': 'UPDATE',
      'db.sql.table': 'users',
    },
  },
  {
    id: 'db-mongo',
    kind: 'Client',
    attrs: { 'db.system': 'mongodb', 'db.operation': 'find', 'db.mongodb.collection': 'carts' },
  },
  { id: 'db-no-namespace', kind: 'Client', attrs: { 'db.system.name': 'redis', 'db.statement': 'GET k' } },
  {
    id: 'db-long',
    kind: 'Client',
    attrs: {
      'db.system.name': 'postgresql',
      'db.operation.name': long(150, 'o'),
      'db.collection.name': long(250, 'c'),
      'db.query.summary': long(250, 's'),
    },
  },
  {
    id: 'rpc-aws',
    kind: 'Client',
    attrs: { 'rpc.system': 'aws-api', 'rpc.service': 'DynamoDB', 'rpc.method': 'PutItem' },
  },
  {
    id: 'rpc-grpc',
    kind: 'Client',
    attrs: { 'rpc.system': 'grpc', 'rpc.service': long(250, 's'), 'rpc.method': long(250, 'm') },
  },
  {
    id: 'messaging-temporary',
    kind: 'Producer',
    attrs: {
      'messaging.system': 'rabbitmq',
      'messaging.operation.name': 'publish',
      'messaging.destination.name': 'amq.gen-JzTY20BRgKO',
      'messaging.destination.temporary': 'true',
    },
  },
  {
    id: 'messaging-template',
    kind: 'Consumer',
    attrs: {
      'messaging.system': 'kafka',
      'messaging.operation': 'receive',
      'messaging.destination.name': 'orders.7',
      'messaging.destination.template': 'orders.{id}',
      'messaging.destination.temporary': 'false',
    },
  },
  {
    id: 'messaging-template-only',
    kind: 'Producer',
    attrs: { 'messaging.operation.name': long(150, 'p'), 'messaging.destination.template': long(250, 't') },
  },
  { id: 'tool-genai', kind: 'Internal', attrs: { 'gen_ai.tool.name': 'lookup_order' } },
  { id: 'tool-ai-sdk', kind: 'Internal', attrs: { 'ai.toolCall.name': long(250, 'a') } },
  { id: 'peer-service', kind: 'Client', attrs: { 'peer.service': 'payments', 'http.method': 'GET' } },
  { id: 'net-peer', kind: 'Client', attrs: { 'net.peer.name': 'legacy-host' } },
  { id: 'nothing', kind: 'Internal', attrs: { 'app.other': 'x' } },
];

/** Where the former SQL's path() read a path out of a query string or fragment: '' now. */
const NO_LONGER_LEAKED: (Shape & { formerPath: string })[] = [
  {
    id: 'leak-query',
    kind: 'Client',
    attrs: { 'http.method': 'GET', 'url.full': 'http://h?next=/account/sk_live_1' },
    formerPath: '/account/sk_live_1',
  },
  { id: 'leak-fragment', kind: 'Client', attrs: { 'url.full': 'http://h#/route/7' }, formerPath: '/route/7' },
  { id: 'leak-target', kind: 'Server', attrs: { 'http.target': '?x/y' }, formerPath: '/y' },
];

const T0 = Date.UTC(2026, 6, 1, 12, 0, 0);
const TRACE = 'c'.repeat(32);
const stamp = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '000000');

let store: Store;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'faultline-call-fields-'));
  const { openStore } = await import('@faultline/sql');
  store = await openStore({ dataDir });
  const values = [...SHAPES, ...NO_LONGER_LEAKED].map((s, i) => ({
    Timestamp: stamp(T0 + i * 10),
    TraceId: TRACE,
    SpanId: String(i + 1).padStart(16, '0'),
    ParentSpanId: '',
    SpanName: s.id,
    SpanKind: s.kind,
    ServiceName: 'call-fields',
    SpanAttributes: s.attrs,
    Duration: 1_000_000,
    StatusCode: 'Unset',
  }));
  await store.client.insert({ table: 'otel_traces', values, format: 'JSONEachRow' });
});

afterAll(async () => {
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

type Row = Record<string, unknown>;

async function formerCalls(): Promise<Map<string, Row>> {
  const rows = await (
    await store.client.query({
      query: `SELECT SpanName AS span, ${FORMER_CALL_SQL} AS call FROM otel_traces WHERE TraceId = {id:String}`,
      query_params: { id: TRACE },
      format: 'JSONEachRow',
    })
  ).json<Row>();
  return new Map(rows.map((r) => [String(r.span), r.call as Row]));
}

async function requestSpans(): Promise<Map<string, Row>> {
  const rows = (await store.runNamed<Row>('dashboard/request_spans', { id: TRACE })).rows;
  return new Map(rows.map((r) => [String(r.span), r]));
}

describe('callFieldsOf beside the former SQL', () => {
  it('builds every field of every span as the former call column did', async () => {
    const [former, spans] = await Promise.all([formerCalls(), requestSpans()]);
    expect(spans.size).toBe(SHAPES.length + NO_LONGER_LEAKED.length);
    for (const shape of SHAPES) {
      const row = spans.get(shape.id)!;
      const built = callFieldsOf(String(row.kind), row.call_attributes as CallAttributes);
      expect(built, shape.id).toEqual(former.get(shape.id));
    }
  });

  it('returns only the listed attributes, each cut to 2,000 characters', async () => {
    const spans = await requestSpans();
    expect(spans.get('nothing')!.call_attributes).toEqual({});
    const db = spans.get('db-stable')!.call_attributes as Record<string, string>;
    expect(db['db.query.text']).toHaveLength(2000);
    expect(Object.keys(db).sort()).toEqual(
      Object.keys(SHAPES.find((s) => s.id === 'db-stable')!.attrs).sort(),
    );
  });

  it('never takes a path out of a query string or fragment, as the former path() did', async () => {
    const [former, spans] = await Promise.all([formerCalls(), requestSpans()]);
    for (const shape of NO_LONGER_LEAKED) {
      const row = spans.get(shape.id)!;
      expect(former.get(shape.id)?.path, shape.id).toBe(shape.formerPath);
      const built = callFieldsOf(String(row.kind), row.call_attributes as CallAttributes);
      expect(built.path, shape.id).toBeUndefined();
      expect({ ...built }, shape.id).toEqual({ ...former.get(shape.id), path: undefined });
    }
  });

  it('reads no attribute the query does not return, and needs each one it does', async () => {
    const spans = await requestSpans();
    const read = new Set<string>();
    for (const row of spans.values()) {
      const attrs = row.call_attributes as Record<string, string>;
      const recorded = new Proxy(attrs, {
        get(target, key) {
          if (typeof key === 'string') read.add(key);
          return Reflect.get(target, key);
        },
      });
      callFieldsOf(String(row.kind), recorded);
    }
    expect([...read].sort()).toEqual([...CALL_ATTRIBUTE_KEYS].sort());
  });
});
