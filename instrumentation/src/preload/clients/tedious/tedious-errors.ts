import { context, trace } from '@opentelemetry/api';
import { type InstrumentationNodeModuleDefinition, isWrapped } from '@opentelemetry/instrumentation';
import { TediousInstrumentation } from '@opentelemetry/instrumentation-tedious';
import { fileSpanError } from '../../pipeline/span-errors.js';
import { safely } from '../../shared/safe.js';
import { commonJsValue, installUnderPatches } from '../../shared/under-patch.js';

/**
 * instrumentation-tedious keeps only the message, the constructor name as `error.type` and the
 * server number as `db.response.status_code` of a failed request; the driver's RequestError
 * (state, class, serverName, procName, lineNumber) and the members of an AggregateError are
 * dropped. Every patched method (execSql, execSqlBatch, callProcedure, prepare, execute,
 * execBulkLoad) reaches `Connection.prototype.makeRequest` synchronously inside the query span's
 * context (tedious 19 lib/connection.js), after the instrumentation has wrapped `request.callback`
 * with the wrapper that ends the span. A thin wrapper of makeRequest, installed *under* the
 * instrumentation's patches, puts one more wrapper outside that one, so the driver's error is filed
 * against the span before the span ends and `onEnding` classifies the real error.
 *
 * tedious has no other error path for a request: the Request 'error' event of `prepare()` is
 * emitted from inside `request.callback` (lib/request.js), and a connection lost mid-request calls
 * `request.callback(ECLOSE)` (lib/connection.js cleanupConnection). `connect()` failures (login
 * failed, ESOCKET) have no span in instrumentation-tedious: the application sees them, no span does.
 */
const WRAPPED = Symbol.for('faultline.tedious-make-request');

type Callback = (this: unknown, err: unknown, ...rest: unknown[]) => unknown;
type MakeRequest = ((this: unknown, request: unknown, ...rest: unknown[]) => unknown) & { [WRAPPED]?: true };
interface ConnectionClass {
  prototype?: { makeRequest?: MakeRequest };
}

export class TediousErrorInstrumentation extends TediousInstrumentation {
  protected override init(): InstrumentationNodeModuleDefinition[] {
    return installUnderPatches(super.init(), 'tedious', (exports) => wrapMakeRequest(connectionOf(exports)));
  }
}

/** `tedious` exports `{ Connection }`; an ESM namespace may hold it behind `default`. */
function connectionOf(exports: unknown): ConnectionClass | undefined {
  const named = (exports as { Connection?: ConnectionClass } | undefined)?.Connection;
  return named ?? (commonJsValue(exports) as { Connection?: ConnectionClass } | undefined)?.Connection;
}

function wrapMakeRequest(connection: ConnectionClass | undefined): void {
  const proto = connection?.prototype;
  const original = proto?.makeRequest;
  if (!proto || typeof original !== 'function' || original[WRAPPED]) return;
  const makeRequest: MakeRequest = function makeRequest(this: unknown, request: unknown, ...rest: unknown[]) {
    safely('tedious request error filing', () => fileErrorsOf(request));
    return original.call(this, request, ...rest);
  };
  makeRequest[WRAPPED] = true;
  proto.makeRequest = makeRequest;
}

function fileErrorsOf(request: unknown): void {
  const target = request as { callback?: Callback } | null;
  const callback = target?.callback;
  // Only requests the instrumentation wrapped have a query span of their own in the active
  // context: transactions, resets and its own `SET CONTEXT_INFO` run under the caller's span.
  if (!target || typeof callback !== 'function' || !isWrapped(callback)) return;
  const span = trace.getSpan(context.active());
  if (!span?.isRecording()) return;
  target.callback = function filed(this: unknown, err: unknown, ...rest: unknown[]) {
    if (err) fileSpanError(span, err);
    return callback.call(this, err, ...rest);
  };
}
