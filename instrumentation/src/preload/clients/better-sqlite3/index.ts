import { performance } from 'node:perf_hooks';
import { diag, type Span } from '@opentelemetry/api';
import {
  type Instrumentation,
  InstrumentationBase,
  type InstrumentationConfig,
  InstrumentationNodeModuleDefinition,
} from '@opentelemetry/instrumentation';
import { commonJsValue } from '../../shared/under-patch.js';
import {
  endSpan,
  failSpan,
  type SqliteDatabase,
  type SqliteStatement,
  statementSpan,
  textSpan,
} from './statement-spans.js';

export const BETTER_SQLITE3_INSTRUMENTATION_NAME = '@faultline/instrumentation-better-sqlite3';
export const BETTER_SQLITE3_INSTRUMENTATION_VERSION = '0.1.0';

/** Database.prototype.prepare/exec and the native Statement's run/get/all/iterate: stable since v7. */
const SUPPORTED = ['>=7.0.0 <13'];

type Method = (this: unknown, ...args: unknown[]) => unknown;
type Methods = Record<string, Method>;
interface DatabaseClass {
  prototype?: Methods;
}

const STATEMENT_METHODS = ['run', 'get', 'all'] as const;

/** The open span of each iterator iterate() returned, until it is done, returned or throws. */
const iterating = new WeakMap<object, Span>();

/**
 * better-sqlite3: a CLIENT span per statement call (`run`, `get`, `all`, `iterate`) and per `exec`,
 * and a failed one for a `prepare` that throws (syntax error, missing table); each failed one
 * carries the SqliteError for the span processor to classify. A successful prepare is a local
 * compile, not a call: it gets no span of its own.
 *
 * Everything is synchronous. Statements come from the native addon, whose Statement and
 * StatementIterator classes are not exported: their prototypes are patched once, from the first
 * statement prepare() returns and the first iterator iterate() returns.
 */
export class BetterSqlite3Instrumentation extends InstrumentationBase {
  private statementProto: Methods | undefined;
  private iteratorProto: Methods | undefined;

  constructor(config: InstrumentationConfig = {}) {
    super(BETTER_SQLITE3_INSTRUMENTATION_NAME, BETTER_SQLITE3_INSTRUMENTATION_VERSION, config);
  }

  protected init(): InstrumentationNodeModuleDefinition[] {
    return [
      new InstrumentationNodeModuleDefinition(
        'better-sqlite3',
        SUPPORTED,
        (exports: unknown) => {
          // `import Database from 'better-sqlite3'` hands the namespace; its default is the class.
          const proto = (commonJsValue(exports) as DatabaseClass | undefined)?.prototype;
          if (typeof proto?.prepare === 'function') this._wrap(proto, 'prepare', this.wrapPrepare());
          if (typeof proto?.exec === 'function') this._wrap(proto, 'exec', this.wrapExec());
          // Enabled again after a disable: statements prepared meanwhile are traced again.
          if (this.statementProto) this.wrapStatements(this.statementProto);
          if (this.iteratorProto) this.wrapIterator(this.iteratorProto);
          return exports;
        },
        (exports?: unknown) => {
          const proto = (commonJsValue(exports) as DatabaseClass | undefined)?.prototype;
          if (proto) this._unwrap(proto, 'prepare');
          if (proto) this._unwrap(proto, 'exec');
          this.unpatchStatements();
        },
      ),
    ];
  }

  private wrapPrepare(): (original: Method) => Method {
    const instrumentation = this;
    return (original) =>
      function prepare(this: unknown, ...args: unknown[]) {
        // Read before the call: a prepare waiting on a locked schema lasts up to the busy timeout.
        const startTime = performance.now();
        let stmt: unknown;
        try {
          stmt = original.apply(this, args);
        } catch (err) {
          const span = textSpan(instrumentation.tracer, args[0], this as SqliteDatabase, startTime);
          if (span) failSpan(span, err);
          throw err;
        }
        if (instrumentation.statementProto === undefined) instrumentation.reachStatements(stmt);
        return stmt;
      };
  }

  private wrapExec(): (original: Method) => Method {
    const instrumentation = this;
    return (original) =>
      function exec(this: unknown, ...args: unknown[]) {
        const span = textSpan(instrumentation.tracer, args[0], this as SqliteDatabase);
        return call(span, original, this, args);
      };
  }

  private reachStatements(stmt: unknown): void {
    try {
      const proto = stmt ? (Object.getPrototypeOf(stmt) as Methods | null) : null;
      if (!proto || typeof proto.run !== 'function') return;
      this.statementProto = proto;
      this.wrapStatements(proto);
    } catch (err) {
      diag.warn('faultline: better-sqlite3 statements not patched', err);
    }
  }

  private wrapStatements(proto: Methods): void {
    const instrumentation = this;
    for (const name of STATEMENT_METHODS) {
      if (typeof proto[name] !== 'function') continue;
      this._wrap(
        proto,
        name,
        (original: Method) =>
          function statementCall(this: unknown, ...args: unknown[]) {
            const span = statementSpan(instrumentation.tracer, this as SqliteStatement);
            return call(span, original, this, args);
          },
      );
    }
    if (typeof proto.iterate === 'function') this._wrap(proto, 'iterate', this.wrapIterate());
  }

  /** The span lasts while the rows are read: it ends with the iterator, not with iterate(). */
  private wrapIterate(): (original: Method) => Method {
    const instrumentation = this;
    return (original) =>
      function iterate(this: unknown, ...args: unknown[]) {
        const span = statementSpan(instrumentation.tracer, this as SqliteStatement);
        if (span === undefined) return original.apply(this, args);
        let iterator: unknown;
        try {
          iterator = original.apply(this, args);
        } catch (err) {
          failSpan(span, err);
          throw err;
        }
        if (iterator !== null && typeof iterator === 'object') {
          iterating.set(iterator, span);
          if (instrumentation.iteratorProto === undefined) instrumentation.reachIterator(iterator);
        } else endSpan(span);
        return iterator;
      };
  }

  private reachIterator(iterator: object): void {
    try {
      const proto = Object.getPrototypeOf(iterator) as Methods | null;
      if (!proto || typeof proto.next !== 'function') return;
      this.iteratorProto = proto;
      this.wrapIterator(proto);
    } catch (err) {
      diag.warn('faultline: better-sqlite3 iterator not patched', err);
    }
  }

  private wrapIterator(proto: Methods): void {
    this._wrap(proto, 'next', wrapNext);
    // A `break` out of for…of: the rows read so far were the call.
    if (typeof proto.return === 'function') this._wrap(proto, 'return', wrapReturn);
  }

  /** The prototypes stay known: enabling again wraps them without waiting for a prepare. */
  private unpatchStatements(): void {
    const statement = this.statementProto;
    if (statement) for (const name of [...STATEMENT_METHODS, 'iterate']) this._unwrap(statement, name);
    const iterator = this.iteratorProto;
    if (iterator) this._unwrap(iterator, 'next');
    if (iterator) this._unwrap(iterator, 'return');
  }
}

function wrapNext(original: Method): Method {
  return function next(this: unknown, ...args: unknown[]) {
    const iterator = this as object;
    const span = iterating.get(iterator);
    if (span === undefined) return original.apply(this, args);
    let result: unknown;
    try {
      result = original.apply(this, args);
    } catch (err) {
      iterating.delete(iterator);
      failSpan(span, err);
      throw err;
    }
    if ((result as { done?: unknown } | null)?.done === true) {
      iterating.delete(iterator);
      endSpan(span);
    }
    return result;
  };
}

function wrapReturn(original: Method): Method {
  return function returned(this: unknown, ...args: unknown[]) {
    const iterator = this as object;
    const span = iterating.get(iterator);
    if (span !== undefined) {
      iterating.delete(iterator);
      endSpan(span);
    }
    return original.apply(this, args);
  };
}

/** Runs the driver's method inside the span's lifetime; its result and its throw stay the app's. */
function call(span: Span | undefined, original: Method, self: unknown, args: unknown[]): unknown {
  if (span === undefined) return original.apply(self, args);
  let result: unknown;
  try {
    result = original.apply(self, args);
  } catch (err) {
    failSpan(span, err);
    throw err;
  }
  endSpan(span);
  return result;
}

/** `better-sqlite3`: spans for better-sqlite3 statements. */
export function betterSqlite3Instrumentation(): Instrumentation {
  return new BetterSqlite3Instrumentation();
}
