import type { Span } from '@opentelemetry/api';
import type { InstrumentationNodeModuleDefinition } from '@opentelemetry/instrumentation';
import { PgInstrumentation, type PgInstrumentationConfig } from '@opentelemetry/instrumentation-pg';
import { fileSpanError } from '../../pipeline/span-errors.js';
import { commonJsValue, installUnderPatches } from '../../shared/under-patch.js';

/**
 * instrumentation-pg keeps only "PostgreSQL error of type 'error' occurred (code: 40P01)" of a
 * failed query; the driver's DatabaseError (message, severity, detail, constraint, table…) is
 * dropped. This subclass slips a thin wrapper *under* the instrumentation's `Client.prototype.query`
 * patch: the wrapper sees the driver's error first and files it under the query's span before the
 * instrumentation's own handler ends that span, so `onEnding` classifies the real error.
 */
/** The span whose query the instrumentation is about to hand to the wrapper (same tick). */
let pending: Span | undefined;
const WRAPPED = Symbol.for('faultline.pg-query');

type Callback = (this: unknown, err: unknown, res: unknown) => unknown;
type Query = ((this: unknown, ...args: unknown[]) => unknown) & { [WRAPPED]?: true };

export class PgErrorInstrumentation extends PgInstrumentation {
  constructor(config: PgInstrumentationConfig = {}) {
    // requestHook runs synchronously right before the instrumentation calls the wrapped query.
    super({
      ...config,
      requestHook: (span) => {
        pending = span.isRecording() ? span : undefined;
      },
      enableTraceContextPropagation: false,
    });
  }

  protected override init(): InstrumentationNodeModuleDefinition[] {
    return installUnderPatches(super.init(), 'pg', (exports) => wrapClientQuery(clientOf(exports)));
  }
}

/** `pg` exports `{ Client }`; `pg/lib/client.js` exports the class; ESM namespaces hold `default`. */
function clientOf(exports: unknown): { prototype?: { query?: Query } } | undefined {
  const value = commonJsValue(exports);
  if (typeof value === 'function') return value as { prototype?: { query?: Query } };
  return (value as { Client?: { prototype?: { query?: Query } } } | undefined)?.Client;
}

function wrapClientQuery(client: { prototype?: { query?: Query } } | undefined): void {
  const proto = client?.prototype;
  const original = proto?.query;
  if (!proto || typeof original !== 'function' || original[WRAPPED]) return;
  // Patched a second time ('pg' after 'pg/lib/client.js'): the instrumentation's wrapper already
  // sits on ours, and unwraps down to it before wrapping again.
  if ((original as { __original?: Query }).__original?.[WRAPPED]) return;
  const query: Query = function query(this: unknown, ...args: unknown[]) {
    const span = pending;
    pending = undefined;
    if (!span) return original.apply(this, args);
    const last = args.length - 1;
    const config = args[0] as { callback?: Callback } | undefined;
    if (typeof args[last] === 'function') args[last] = fileErrors(span, args[last] as Callback);
    else if (config && typeof config === 'object' && typeof config.callback === 'function') {
      config.callback = fileErrors(span, config.callback);
    }
    const result = original.apply(this, args);
    if (!(result instanceof Promise)) return result;
    return result.then(undefined, (err: unknown) => {
      fileSpanError(span, err);
      throw err;
    });
  };
  query[WRAPPED] = true;
  proto.query = query;
}

function fileErrors(span: Span, callback: Callback): Callback {
  return function filed(this: unknown, err: unknown, res: unknown) {
    if (err) fileSpanError(span, err);
    return callback.call(this, err, res);
  };
}
