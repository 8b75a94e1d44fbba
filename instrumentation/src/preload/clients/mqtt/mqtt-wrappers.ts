import { type Attributes, type Context, context, diag, type Span, type Tracer } from '@opentelemetry/api';
import {
  addServer,
  failSpan,
  type MqttClientLike,
  startConnectSpan,
  startPublishSpan,
  startSubscribeSpan,
  subackRefusal,
} from './mqtt-spans.js';

export type ConnectFn = (this: unknown, brokerUrl?: unknown, opts?: unknown, ...rest: unknown[]) => unknown;
export type ClientFn = (this: MqttClientLike, topic: unknown, ...rest: unknown[]) => unknown;
type Callback = (this: unknown, ...args: unknown[]) => unknown;

/** What the wrappers need of the instrumentation, read at call time. */
export interface Hooks {
  tracer(): Tracer;
  /** mqtt.js copies `connect` into its index at load: a disabled instrumentation cannot unwrap that copy. */
  enabled(): boolean;
}

/** Set while `connectAsync` runs its synchronous part: a `connect` it calls is its own step. */
let inConnectAsync = false;

/**
 * Hook code runs in plain try/catch rather than safely(): publish and subscribe wrappers sit on
 * every call, where a closure per call costs. The library's own call is never inside a catch of
 * ours that swallows: what it throws, or hands its callback, reaches the application unchanged.
 *
 * `mqtt.connect` returns the client at once: the span ends at the client's first 'connect' (a
 * CONNACK accepted), 'error' (refused CONNACK, socket error) or 'close' before either.
 */
export function wrapConnect(hooks: Hooks): (original: ConnectFn) => ConnectFn {
  return (original) =>
    function connect(this: unknown, brokerUrl?: unknown, opts?: unknown, ...rest: unknown[]) {
      const span = inConnectAsync || !hooks.enabled() ? undefined : startConnect(hooks, brokerUrl, opts);
      if (span === undefined) return original.call(this, brokerUrl, opts, ...rest);
      let client: unknown;
      try {
        client = original.call(this, brokerUrl, opts, ...rest);
      } catch (err) {
        fail(span, err);
        throw err;
      }
      try {
        watchConnect(span, client as MqttClientLike);
      } catch (err) {
        diag.warn('faultline: mqtt connect watch failed', err);
      }
      return client;
    };
}

/** `connectAsync` settles on the same events; its promise says which. */
export function wrapConnectAsync(hooks: Hooks): (original: ConnectFn) => ConnectFn {
  return (original) =>
    function connectAsync(this: unknown, brokerUrl?: unknown, opts?: unknown, ...rest: unknown[]) {
      const span = startConnect(hooks, brokerUrl, opts);
      if (span === undefined) return original.call(this, brokerUrl, opts, ...rest);
      let result: unknown;
      inConnectAsync = true;
      try {
        result = original.call(this, brokerUrl, opts, ...rest);
      } catch (err) {
        fail(span, err);
        throw err;
      } finally {
        inConnectAsync = false;
      }
      if (typeof (result as { then?: unknown } | null)?.then !== 'function') end(span);
      else
        (result as PromiseLike<unknown>).then(
          (client) => connected(span, client as MqttClientLike),
          (err: unknown) => fail(span, err),
        );
      return result;
    };
}

/** publish(topic, message, [opts], [callback]): the span ends when mqtt.js calls back. */
export function wrapPublish(tracer: () => Tracer): (original: ClientFn) => ClientFn {
  return (original) =>
    function publish(this: MqttClientLike, topic: unknown, message?: unknown, opts?: unknown, cb?: unknown) {
      let span: Span | undefined;
      try {
        span = startPublishSpan(tracer(), this, topic);
      } catch (err) {
        diag.warn('faultline: mqtt publish span failed', err);
      }
      if (span === undefined) return original.call(this, topic, message, opts, cb);
      const ctx = context.active();
      try {
        return typeof opts === 'function'
          ? original.call(this, topic, message, ending(span, opts as Callback, ctx, false))
          : original.call(this, topic, message, opts, ending(span, cb, ctx, false));
      } catch (err) {
        fail(span, err);
        throw err;
      }
    };
}

/** subscribe(topics, [opts], [callback]): the span ends at the SUBACK (or mqtt.js's refusal). */
export function wrapSubscribe(tracer: () => Tracer): (original: ClientFn) => ClientFn {
  return (original) =>
    function subscribe(this: MqttClientLike, topics: unknown, opts?: unknown, cb?: unknown) {
      let span: Span | undefined;
      try {
        span = startSubscribeSpan(tracer(), this, topics);
      } catch (err) {
        diag.warn('faultline: mqtt subscribe span failed', err);
      }
      if (span === undefined) return original.call(this, topics, opts, cb);
      const ctx = context.active();
      try {
        return typeof opts === 'function'
          ? original.call(this, topics, ending(span, opts as Callback, ctx, true))
          : original.call(this, topics, opts, ending(span, cb, ctx, true));
      } catch (err) {
        fail(span, err);
        throw err;
      }
    };
}

/**
 * The callback mqtt.js calls in place of the application's: it ends the span, then runs the
 * application's callback with the same arguments in the caller's context (mqtt.js calls back from
 * its socket's, the context the connection was opened in).
 */
function ending(span: Span, cb: unknown, ctx: Context, subscribe: boolean): Callback {
  const user = typeof cb === 'function' ? (cb as Callback) : undefined;
  return function settled(this: unknown, ...args: unknown[]) {
    const err = args[0];
    if (err) fail(span, err);
    else if (!subscribe) end(span);
    else {
      let refused: Error | undefined;
      try {
        refused = subackRefusal(args[1]);
      } catch (e) {
        diag.warn('faultline: mqtt SUBACK read failed', e);
      }
      if (refused) fail(span, refused);
      else end(span);
    }
    return user === undefined ? undefined : context.with(ctx, user, this, ...args);
  };
}

function startConnect(hooks: Hooks, brokerUrl: unknown, opts: unknown): Span | undefined {
  try {
    return startConnectSpan(hooks.tracer(), brokerUrl, opts);
  } catch (err) {
    diag.warn('faultline: mqtt connect span failed', err);
    return undefined;
  }
}

function watchConnect(span: Span, client: MqttClientLike): void {
  const { on, removeListener } = client;
  if (typeof on !== 'function' || typeof removeListener !== 'function') {
    end(span);
    return;
  }
  let settled = false;
  const settle = (err: unknown) => {
    if (settled) return;
    settled = true;
    removeListener.call(client, 'connect', onConnect);
    removeListener.call(client, 'error', onError);
    removeListener.call(client, 'close', onClose);
    removeListener.call(client, 'end', onClose);
    if (err === undefined) connected(span, client);
    else fail(span, err);
  };
  const onConnect = () => settle(undefined);
  const onError = (err: unknown) => settle(err ?? new Error('MQTT client error'));
  // The application's end() before the CONNACK is no failure of the broker's.
  const onClose = () => settle(client.disconnecting ? undefined : closedBeforeConnack());
  on.call(client, 'connect', onConnect);
  on.call(client, 'error', onError);
  on.call(client, 'close', onClose);
  on.call(client, 'end', onClose);
}

function closedBeforeConnack(): Error {
  return new Error('Connection closed before CONNACK');
}

function connected(span: Span, client: MqttClientLike | undefined): void {
  try {
    const attributes: Attributes = {};
    addServer(attributes, client);
    span.setAttributes(attributes);
  } catch (err) {
    diag.warn('faultline: mqtt connect attributes failed', err);
  }
  end(span);
}

function end(span: Span): void {
  try {
    span.end();
  } catch (err) {
    diag.warn('faultline: mqtt span end failed', err);
  }
}

function fail(span: Span, error: unknown): void {
  try {
    failSpan(span, error);
  } catch (err) {
    diag.warn('faultline: mqtt span failure failed', err);
  }
}
