import {
  type Instrumentation,
  InstrumentationBase,
  type InstrumentationConfig,
  InstrumentationNodeModuleDefinition,
} from '@opentelemetry/instrumentation';
import { methodFile, type Shimmer } from '../../shared/method-file.js';
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

  private shimmer(): Shimmer {
    // Protected on InstrumentationBase: handed to the shared file patch as plain functions.
    const wrap = this._wrap as unknown as Shimmer['wrap'];
    const massUnwrap = this._massUnwrap as unknown as (targets: object[], methods: string[]) => void;
    return { wrap, unwrap: (target, methods) => massUnwrap([target], methods) };
  }

  protected init(): InstrumentationNodeModuleDefinition[] {
    const tracer = () => this.tracer;
    const shimmer = this.shimmer();
    const connectFile = methodFile(
      'nats/lib/src/connect.js',
      SUPPORTED,
      (exports: ConnectModule) => exports,
      { connect: wrapConnect(tracer) },
      shimmer,
    );
    const connectionFile = methodFile(
      'nats/lib/nats-base-client/nats.js',
      SUPPORTED,
      (exports: ConnectionModule) => exports.NatsConnectionImpl?.prototype,
      { request: wrapRequest(tracer), publish: wrapPublish(tracer) },
      shimmer,
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
