import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countingRules } from '@faultline/instrumentation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBatch } from '../../src/connection/insert-batch.js';
import { serializeRows } from '../../src/connection/serialize-rows.js';
import { openStore } from '../../src/index.js';
import type { Store } from '../../src/types.js';
import { dateTime64, makeRow } from '../support/trace-row-fixture.js';
import { COUNT_SHAPES, type CountShape, typedAttributes } from './count-shapes.js';

/**
 * The counting rules have two homes by necessity: the preload counts every call in process
 * (countingRules in @faultline/instrumentation: its exact counts, call_counts_1m), and the rollups
 * count the stored spans through the SQL functions of sql/schema/005_functions.sql and
 * 006_dependency_function.sql. Both run here over the same spans, stored as the collector stores
 * them; the TypeScript rules also over the typed attributes a live span carries. Any disagreement
 * fails, naming the shape.
 */
const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

let dir: string;
let store: Store;

const statusOf = (shape: CountShape) => shape.status ?? (shape.attrs['faultline.class'] ? 'Error' : 'Unset');
const isError = (status: string) => status === 'Error' || status === 'STATUS_CODE_ERROR';

interface Verdict {
  id: string;
  kind: string;
  role: string;
  counted: boolean;
  failed: boolean;
  source: string;
  dependency: string;
  call_dependency: string;
  sdk_attempts: number;
  propagated: boolean;
}

/** The TypeScript twins' verdicts on one shape, over stored or typed attributes. */
function tsVerdict(shape: CountShape, attrs: Record<string, unknown>): Verdict {
  const r = countingRules;
  const name = shape.name ?? shape.id;
  const error = isError(statusOf(shape));
  return {
    id: shape.id,
    kind: r.spanKindName(shape.kind),
    role: r.callRoleOf(name, attrs, error),
    counted: r.isCountedCall(name, shape.kind, attrs, error),
    failed: r.isFailedSpan(attrs, error),
    source: r.spanSourceOf(attrs),
    dependency: r.dependencyOf(attrs),
    call_dependency: r.callDependencyOf(shape.kind, attrs),
    sdk_attempts: r.sdkAttemptsOf(attrs),
    propagated: r.isPropagated(attrs),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-counting-parity-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(
    store.client,
    serializeRows(
      COUNT_SHAPES.map((shape, i) =>
        makeRow({
          Timestamp: dateTime64(T0 + i * 1000),
          ServiceName: shape.id,
          SpanName: shape.name ?? shape.id,
          SpanKind: shape.kind,
          SpanAttributes: shape.attrs,
          StatusCode: statusOf(shape),
        }),
      ),
    ),
  );
});

afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('counting rules: the TypeScript twins and the SQL functions agree', () => {
  let sql: Map<string, Verdict>;

  beforeAll(async () => {
    const rs = await store.client.query({
      query: `SELECT
          ServiceName AS id,
          faultline_span_kind(SpanKind) AS kind,
          faultline_call_role(SpanName, SpanAttributes, StatusCode) AS role,
          toBool(faultline_counted_call(SpanName, SpanKind, SpanAttributes, StatusCode)) AS counted,
          toBool(faultline_failed(SpanAttributes, StatusCode)) AS failed,
          faultline_source(SpanAttributes) AS source,
          faultline_dependency(SpanAttributes) AS dependency,
          faultline_call_dependency(SpanKind, SpanAttributes) AS call_dependency,
          faultline_sdk_attempts(SpanAttributes) AS sdk_attempts,
          toBool(faultline_propagated(SpanAttributes)) AS propagated
        FROM otel_traces`,
      // UInt64 as a JSON number, as the TypeScript rule returns it.
      clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
      format: 'JSONEachRow',
    });
    const rows = (await rs.json()) as Verdict[];
    sql = new Map(rows.map((r) => [r.id, r]));
  });

  it('on every shape, over the stored attributes', () => {
    expect(sql.size).toBe(COUNT_SHAPES.length);
    const disagreements = COUNT_SHAPES.flatMap((shape) => {
      const ts = tsVerdict(shape, shape.attrs);
      const stored = sql.get(shape.id);
      return JSON.stringify(ts) === JSON.stringify(stored) ? [] : [{ ts, sql: stored }];
    });
    expect(disagreements).toEqual([]);
  });

  it('on every shape, over the typed attributes the preload reads', () => {
    const disagreements = COUNT_SHAPES.flatMap((shape) => {
      const ts = tsVerdict(shape, typedAttributes(shape.attrs));
      const stored = sql.get(shape.id);
      return JSON.stringify(ts) === JSON.stringify(stored) ? [] : [{ ts, sql: stored }];
    });
    expect(disagreements).toEqual([]);
  });

  it('names the dependencies the shapes were written for', () => {
    const dependency = (id: string) => sql.get(id)?.call_dependency;
    expect({
      userinfo: dependency('url-userinfo-port'),
      port443: dependency('url-default-port-443'),
      port80: dependency('url-default-port-80'),
      ipv6: dependency('url-ipv6'),
      singleLabel: dependency('url-single-label-host'),
      template: dependency('url-template'),
      relative: dependency('url-not-absolute'),
      noScheme: dependency('url-no-scheme'),
      address: dependency('server-address-port-template'),
      peer: dependency('peer-service-wins'),
      server: dependency('server-span-no-dependency'),
      db: dependency('db-system-name-namespace'),
      dbTrimmed: dependency('db-namespace-trailing-spaces'),
      aws: dependency('js-aws-sdk-s3'),
      // A DynamoDB span carries db.system: the database branch comes first.
      dynamodb: dependency('js-aws-sdk-dynamodb'),
      grpc: dependency('rpc-service-no-method'),
      temporary: dependency('messaging-temporary'),
      messagingTemplate: dependency('messaging-template'),
      destinationOnly: dependency('messaging-destination-only'),
    }).toEqual({
      userinfo: 'api.example.com:8443',
      port443: 'api.example.com',
      port80: 'api.example.com',
      ipv6: '[::1]:9090',
      singleLabel: 'inventory:8080',
      template: 'users:3000 /users/{id}',
      relative: 'fallback-peer',
      noScheme: '',
      address: 'pay.example:8443 /charges/{id}',
      peer: 'payments',
      server: '',
      db: 'postgresql orders',
      dbTrimmed: 'mysql shop',
      aws: 'aws S3/PutObject',
      dynamodb: 'dynamodb',
      grpc: 'shop.Cart',
      temporary: 'rabbitmq temporary',
      messagingTemplate: 'nats orders.{id}',
      destinationOnly: ' jobs',
    });
    expect([...(sql.get('long-host')?.dependency ?? '')]).toHaveLength(200);
  });

  it('counts what the rules were written for: calls, roles, attempts', () => {
    const pick = (id: string) => {
      const v = sql.get(id);
      return v && { role: v.role, counted: v.counted, failed: v.failed, attempts: v.sdk_attempts };
    };
    expect({
      checkout: pick('checkout-by-name'),
      connectFailed: pick('connect-failed'),
      connectClassified: pick('connect-classified'),
      transport: pick('role-transport'),
      internalWithSource: pick('internal-with-source'),
      producer: pick('messaging-destination'),
      attempts: pick('attempts-3'),
      capped: pick('attempts-150'),
      overflow: pick('attempts-overflow'),
    }).toEqual({
      checkout: { role: 'checkout', counted: false, failed: false, attempts: 0 },
      connectFailed: { role: '', counted: true, failed: true, attempts: 0 },
      connectClassified: { role: '', counted: true, failed: true, attempts: 0 },
      transport: { role: 'transport', counted: false, failed: true, attempts: 0 },
      internalWithSource: { role: '', counted: true, failed: false, attempts: 0 },
      producer: { role: '', counted: false, failed: false, attempts: 0 },
      attempts: { role: '', counted: true, failed: false, attempts: 3 },
      capped: { role: '', counted: true, failed: false, attempts: 100 },
      overflow: { role: '', counted: true, failed: false, attempts: 0 },
    });
  });
});
