import { types } from 'node:util';
import { diag } from '@opentelemetry/api';
import {
  type Instrumentation,
  InstrumentationBase,
  type InstrumentationConfig,
  InstrumentationNodeModuleDefinition,
} from '@opentelemetry/instrumentation';
import { endQuerySpan, type PgQuery, startQuerySpan } from './query-spans.js';

export const POSTGRES_JS_INSTRUMENTATION_NAME = '@faultline/instrumentation-postgres';
export const POSTGRES_JS_INSTRUMENTATION_VERSION = '0.1.0';

/**
 * postgres.js v4 (ESM only; `require('postgres')` is Node's require(esm) and returns the
 * namespace). v3 keeps resolve/reject as per-query closures and no options on the handler, so its
 * queries would need another seam.
 */
const SUPPORTED = ['>=4.0.0 <5'];

type Method = (this: PgQuery, ...args: unknown[]) => unknown;
interface QueryPrototype {
  handle: Method;
  resolve: Method;
  reject: Method;
}
type Postgres = ((...args: unknown[]) => unknown) & Record<string, unknown>;
interface Sql {
  unsafe?: (text: string) => unknown;
}
type Namespace = Record<string | symbol, unknown> & { default?: unknown };

/**
 * postgres.js: a CLIENT span per query, from its first `then`/`execute` to its settling, each
 * failed one carrying the driver's own error (PostgresError, or the client's ECONNREFUSED,
 * CONNECT_TIMEOUT…) for the span processor to classify.
 *
 * Every query of every API (tagged template, `unsafe`, `file`, `begin`, `reserve`, cursors,
 * `forEach`, `batch`) is a `Query` (src/query.js): `handle()` is where it starts running, and the
 * pool settles it through `resolve()`/`reject()`, connection failures included. The class is not
 * exported, so the package's default export (`postgres()`) is wrapped to reach its prototype from
 * the first query object an `sql` makes, and that prototype is patched once.
 */
export class PostgresJsInstrumentation extends InstrumentationBase {
  /** Query prototypes reached so far, and those whose methods are wrapped now. */
  private readonly known = new Set<QueryPrototype>();
  private readonly patched = new Set<QueryPrototype>();

  constructor(config: InstrumentationConfig = {}) {
    super(POSTGRES_JS_INSTRUMENTATION_NAME, POSTGRES_JS_INSTRUMENTATION_VERSION, config);
  }

  protected init(): InstrumentationNodeModuleDefinition[] {
    return [
      new InstrumentationNodeModuleDefinition(
        'postgres',
        SUPPORTED,
        (exports: Namespace) => this.patchExports(exports),
        (exports?: Namespace) => this.unpatchAll(exports),
      ),
    ];
  }

  /**
   * import-in-the-middle hands a namespace proxy whose `default` can be rebound. require(esm)
   * hands the real namespace, which is frozen, and a transpiler's CommonJS copy may define
   * `default` as a getter that cannot be redefined: require-in-the-middle returns a copy instead,
   * with every other property (`__esModule`, the toStringTag) as it was.
   */
  private patchExports(exports: Namespace): Namespace {
    // Enabled again after a disable: the sql instances made meanwhile keep their queries traced.
    for (const proto of this.known) if (!this.patched.has(proto)) this.patchQuery(proto);
    if (typeof exports?.default !== 'function') return exports;
    if (types.isProxy(exports)) {
      const proxy = exports as { default: Postgres };
      this._wrap(proxy, 'default', (original: Postgres) => this.wrapPostgres(original));
      return exports;
    }
    const copy: Namespace = {};
    for (const key of Reflect.ownKeys(exports)) {
      const descriptor = Object.getOwnPropertyDescriptor(exports, key);
      if (descriptor && key !== 'default') Object.defineProperty(copy, key, descriptor);
    }
    copy.default = this.wrapPostgres(exports.default as Postgres);
    return copy;
  }

  /** `postgres(url | options)` unchanged, with its properties (PostgresError, toCamel…). */
  private wrapPostgres(original: Postgres): Postgres {
    const instrumentation = this;
    const postgres = function (this: unknown, ...args: unknown[]) {
      const sql = new.target ? Reflect.construct(original, args, new.target) : original.apply(this, args);
      if (instrumentation.isEnabled()) instrumentation.reachQueryPrototype(sql as Sql);
      return sql;
    } as Postgres;
    for (const key of Reflect.ownKeys(original)) {
      if (key === 'length' || key === 'name' || key === 'prototype') continue;
      const descriptor = Object.getOwnPropertyDescriptor(original, key);
      if (descriptor) Object.defineProperty(postgres, key, descriptor);
    }
    Object.defineProperty(postgres, 'name', { value: original.name });
    return postgres;
  }

  /** A query made and never run (lazy: nothing is sent until it is awaited) shows the class. */
  private reachQueryPrototype(sql: Sql | undefined): void {
    try {
      if (typeof sql?.unsafe !== 'function') return;
      const proto = Object.getPrototypeOf(sql.unsafe('')) as Partial<QueryPrototype> | null;
      if (!proto || this.known.has(proto as QueryPrototype)) return;
      if (typeof proto.handle !== 'function' || typeof proto.resolve !== 'function') return;
      if (typeof proto.reject === 'function') this.patchQuery(proto as QueryPrototype);
    } catch (err) {
      diag.warn('faultline: postgres.js query prototype not reached', err);
    }
  }

  private patchQuery(proto: QueryPrototype): void {
    this.known.add(proto);
    this.patched.add(proto);
    const instrumentation = this;
    this._wrap(
      proto,
      'handle',
      (original: Method) =>
        function handle(this: PgQuery, ...args: unknown[]) {
          // Every then/catch/finally calls handle(); only the first runs the query.
          if (!this.executed) {
            try {
              startQuerySpan(instrumentation.tracer, this);
            } catch (err) {
              diag.warn('faultline: postgres.js span not started', err);
            }
          }
          return original.apply(this, args);
        },
    );
    this._wrap(proto, 'resolve', (original: Method) => settle(original, false));
    this._wrap(proto, 'reject', (original: Method) => settle(original, true));
  }

  private unpatchAll(_exports?: Namespace): void {
    // The export wrapper stays (a namespace binding or a required copy cannot be taken back); it
    // checks isEnabled(). The query methods are restored.
    for (const proto of this.patched) {
      this._unwrap(proto, 'handle');
      this._unwrap(proto, 'resolve');
      this._unwrap(proto, 'reject');
    }
    this.patched.clear();
  }
}

/** Ends the span before the driver settles the promise, so the caller's continuation follows it. */
function settle(original: Method, failed: boolean): Method {
  return function settled(this: PgQuery, ...args: unknown[]) {
    try {
      endQuerySpan(this, args[0], failed);
    } catch (err) {
      diag.warn('faultline: postgres.js span not ended', err);
    }
    return original.apply(this, args);
  };
}

/** `postgres`: spans for postgres.js queries. */
export function postgresJsInstrumentation(): Instrumentation {
  return new PostgresJsInstrumentation();
}
