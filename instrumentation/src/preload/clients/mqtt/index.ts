import {
  type Instrumentation,
  InstrumentationBase,
  type InstrumentationConfig,
  InstrumentationNodeModuleDefinition,
} from '@opentelemetry/instrumentation';
import { methodFile, type Shimmer } from '../../shared/method-file.js';
import {
  type ClientFn,
  type ConnectFn,
  type Hooks,
  wrapConnect,
  wrapConnectAsync,
  wrapPublish,
  wrapSubscribe,
} from './mqtt-wrappers.js';

export const MQTT_INSTRUMENTATION_NAME = '@faultline/instrumentation-mqtt';
export const MQTT_INSTRUMENTATION_VERSION = '0.1.0';

/** MQTT.js v5, the TypeScript rewrite whose CommonJS build lives under build/. */
const SUPPORTED = ['>=5.0.0 <6'];

interface ConnectModule {
  default?: ConnectFn;
  connectAsync?: ConnectFn;
}
interface ClientPrototype {
  publish?: ClientFn;
  subscribe?: ClientFn;
}
interface ClientModule {
  default?: { prototype?: ClientPrototype };
}

/**
 * MQTT.js (v5): a CLIENT span per `connect()`/`connectAsync()` and `subscribe()` (and so
 * `subscribeAsync()`, which calls it), a PRODUCER span per `publish()` (and `publishAsync()`), each
 * failed one carrying mqtt.js's own error for the span processor to classify.
 *
 * The files, not the package's exports: the index re-exports through getters, and `connectAsync`
 * calls the module's own `connect`. Both files are plain CommonJS the index requires, so
 * require-in-the-middle patches them whether the application requires or imports `mqtt` (its
 * "exports" send both to build/index.js under Node, and Node loads the internals through `require`
 * either way); the `mqtt` definition itself is what registers the ESM hook for the package.
 */
export class MqttInstrumentation extends InstrumentationBase {
  constructor(config: InstrumentationConfig = {}) {
    super(MQTT_INSTRUMENTATION_NAME, MQTT_INSTRUMENTATION_VERSION, config);
  }

  private shimmer(): Shimmer {
    // Protected on InstrumentationBase: handed to the shared file patch as plain functions.
    const wrap = this._wrap as unknown as Shimmer['wrap'];
    const massUnwrap = this._massUnwrap as unknown as (targets: object[], methods: string[]) => void;
    return { wrap, unwrap: (target, methods) => massUnwrap([target], methods) };
  }

  protected init(): InstrumentationNodeModuleDefinition[] {
    const tracer = () => this.tracer;
    const hooks: Hooks = { tracer, enabled: () => this.isEnabled() };
    const shimmer = this.shimmer();
    const connectFile = methodFile(
      'mqtt/build/lib/connect/index.js',
      SUPPORTED,
      (exports: ConnectModule) => exports,
      { default: wrapConnect(hooks), connectAsync: wrapConnectAsync(hooks) },
      shimmer,
    );
    const clientFile = methodFile(
      'mqtt/build/lib/client.js',
      SUPPORTED,
      (exports: ClientModule) => exports.default?.prototype,
      { publish: wrapPublish(tracer), subscribe: wrapSubscribe(tracer) },
      shimmer,
    );
    return [
      new InstrumentationNodeModuleDefinition('mqtt', SUPPORTED, undefined, undefined, [
        connectFile,
        clientFile,
      ]),
    ];
  }
}

/** `mqtt`: spans for MQTT.js connect, publish and subscribe. */
export function mqttInstrumentation(): Instrumentation {
  return new MqttInstrumentation();
}
