import {
  type Instrumentation,
  InstrumentationBase,
  type InstrumentationConfig,
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
} from '@opentelemetry/instrumentation';
import { safely } from '../../shared/safe.js';
import { type ConnectFn, type SendFn, wrapConnect, wrapPublish, wrapRequest } from './nats-wrappers.js';

export const NATS_INSTRUMENTATION_NAME = '@faultline/instrumentation-nats';
export const NATS_INSTRUMENTATION_VERSION = '0.1.0';

/** nats.js v2: v3 moved to the @nats-io/* packages. */
const SUPPORTED = ['>=2.0.0 <3'];

interface ConnectModule {
  connect?: ConnectFn;
}
interface ConnectionPrototype {
  request?: SendFn;
  publish?: SendFn;
}
interface ConnectionModule {
  NatsConnectionImpl?: { prototype?: ConnectionPrototype };
}

/**
 * nats.js (v2): a CLIENT span per `connect()` and `nc.request()`, a PRODUCER span per `nc.publish()`,
 * each failed one carrying nats.js's own NatsError for the span processor to classify.
 *
 * The files, not the package's exports: `nats` re-exports `connect` through a non-configurable
 * getter, which cannot be wrapped, and the connection class is not exported at all. Both files are
 * plain CommonJS that nats' own index requires, so require-in-the-middle patches them whether the
 * application requires or imports `nats` (Node loads the package's internals through `require`
 * either way); the `nats` definition itself is what registers the ESM hook for the package.
 */
export class NatsInstrumentation extends InstrumentationBase {
  constructor(config: InstrumentationConfig = {}) {
    super(NATS_INSTRUMENTATION_NAME, NATS_INSTRUMENTATION_VERSION, config);
  }

  protected init(): InstrumentationNodeModuleDefinition[] {
    const tracer = () => this.tracer;
    const connectFile = new InstrumentationNodeModuleFile(
      'nats/lib/src/connect.js',
      SUPPORTED,
      (exports: ConnectModule) => {
        safely('nats connect patch', () => {
          if (typeof exports?.connect === 'function')
            this._wrap(exports as Required<ConnectModule>, 'connect', wrapConnect(tracer));
        });
        return exports;
      },
      (exports?: ConnectModule) => {
        safely('nats connect unpatch', () => exports && this._unwrap(exports, 'connect'));
      },
    );
    const connectionFile = new InstrumentationNodeModuleFile(
      'nats/lib/nats-base-client/nats.js',
      SUPPORTED,
      (exports: ConnectionModule) => {
        safely('nats connection patch', () => {
          const proto = exports?.NatsConnectionImpl?.prototype as Required<ConnectionPrototype> | undefined;
          if (typeof proto?.request === 'function') this._wrap(proto, 'request', wrapRequest(tracer));
          if (typeof proto?.publish === 'function') this._wrap(proto, 'publish', wrapPublish(tracer));
        });
        return exports;
      },
      (exports?: ConnectionModule) => {
        safely('nats connection unpatch', () => {
          const proto = exports?.NatsConnectionImpl?.prototype;
          if (proto) this._massUnwrap([proto], ['request', 'publish']);
        });
      },
    );
    return [
      new InstrumentationNodeModuleDefinition('nats', SUPPORTED, undefined, undefined, [
        connectFile,
        connectionFile,
      ]),
    ];
  }
}

/** `nats`: spans for nats.js connect, request and publish. */
export function natsInstrumentation(): Instrumentation {
  return new NatsInstrumentation();
}
