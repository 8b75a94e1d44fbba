/**
 * Thrown values that break naive normalizers (issue 2: "never throws: null, strings, circular objects,
 * getters that throw"). Anything can be thrown in JavaScript, and the preload classifies on the hot path.
 */
import type { ErrorClass } from '../../src/types.js';

export interface HostileInput {
  id: string;
  build: () => unknown;
  /** Pinned only where nothing in the value can carry a signal: the fallback is permanent. */
  expectedClass?: ErrorClass;
  secrets?: string[];
}

const boom = (): never => {
  throw new Error('getter exploded');
};

function circular(): unknown {
  const a: Record<string, unknown> = { message: 'circular', code: 'ECIRCLE' };
  a.self = a;
  a.nested = { parent: a, list: [a] };
  return a;
}

function deep(depth: number): unknown {
  let node: Record<string, unknown> = { message: 'bottom' };
  for (let i = 0; i < depth; i++) node = { child: node, message: `level ${i}` };
  return node;
}

export const hostileInputs: HostileInput[] = [
  { id: 'null', build: () => null, expectedClass: 'permanent' },
  { id: 'undefined', build: () => undefined, expectedClass: 'permanent' },
  { id: 'string', build: () => 'something went wrong', expectedClass: 'permanent' },
  { id: 'empty-string', build: () => '', expectedClass: 'permanent' },
  { id: 'number', build: () => 42, expectedClass: 'permanent' },
  { id: 'nan', build: () => Number.NaN, expectedClass: 'permanent' },
  { id: 'bigint', build: () => 10n ** 30n, expectedClass: 'permanent' },
  { id: 'symbol', build: () => Symbol('thrown'), expectedClass: 'permanent' },
  { id: 'boolean-false', build: () => false, expectedClass: 'permanent' },
  { id: 'function', build: () => () => 'thrown function', expectedClass: 'permanent' },
  { id: 'array-of-errors', build: () => [new Error('a'), new Error('b')] },
  { id: 'circular-object', build: circular },
  {
    id: 'error-with-circular-cause',
    build: () => {
      const e = new Error('loop') as Error & { cause?: unknown };
      e.cause = e;
      return e;
    },
  },
  {
    id: 'getters-that-throw',
    build: () =>
      Object.defineProperties(new Error('x'), {
        code: { get: boom, enumerable: true },
        status: { get: boom, enumerable: true },
        response: { get: boom, enumerable: true },
        message: { get: boom, enumerable: true },
      }),
  },
  {
    id: 'name-getter-throws',
    build: () => {
      class Weird extends Error {
        override get name(): string {
          throw new Error('no name for you');
        }
      }
      return new Weird('weird');
    },
  },
  {
    id: 'proxy-throwing-on-every-trap',
    build: () =>
      new Proxy(
        {},
        {
          get: boom,
          has: boom,
          ownKeys: boom,
          getOwnPropertyDescriptor: boom,
          getPrototypeOf: boom,
        },
      ),
  },
  { id: 'to-json-throws', build: () => ({ message: 'has toJSON', toJSON: boom }) },
  {
    id: 'null-prototype-object',
    build: () => Object.assign(Object.create(null) as object, { message: 'no proto', code: 'X' }),
  },
  { id: 'deeply-nested-2000', build: () => deep(2000) },
  { id: 'huge-message-1mib', build: () => new Error('x'.repeat(1024 * 1024)) },
  {
    id: 'huge-array-property',
    build: () => Object.assign(new Error('big'), { items: Array.from({ length: 100000 }, (_, i) => i) }),
  },
  { id: 'date', build: () => new Date(0) },
  { id: 'map', build: () => new Map([['k', 'v']]) },
  { id: 'status-is-a-string-garbage', build: () => ({ status: 'not-a-number', headers: 12 }) },
  {
    id: 'headers-getter-throws-on-sdk-error',
    build: () =>
      Object.defineProperty(Object.assign(new Error('429 Too Many Requests'), { status: 429 }), 'headers', {
        get: boom,
        enumerable: true,
      }),
  },
  {
    id: 'plain-object-with-credentials',
    secrets: ['h6HostileDbPa55', 'h6HostileApiK3y', 'h6HostileCookieVal'],
    build: () => ({
      message: 'failed to connect to postgres://svc:h6HostileDbPa55@db:5432/app',
      config: {
        password: 'h6HostileDbPa55',
        apiKey: 'h6HostileApiK3y',
        headers: { Authorization: 'Bearer h6HostileApiK3y', Cookie: 'sid=h6HostileCookieVal' },
        url: 'https://api.example.com/x?api_key=h6HostileApiK3y',
      },
    }),
  },
  {
    id: 'code-is-an-object',
    build: () => Object.assign(new Error('odd'), { code: { nested: true }, status: { value: 500 } }),
  },
  {
    id: 'status-out-of-range',
    build: () => Object.assign(new Error('odd status'), { status: 99999, statusCode: -1 }),
  },
];
