import diagnosticsChannel from 'node:diagnostics_channel';

/**
 * mysql2 publishes its error object on its own tracing channels, synchronously just before it
 * calls the (instrumented) callback that ends the span, while the OTel instrumentation keeps only
 * the message. The error is parked here for that one synchronous hand-off and cleared after.
 */
let parked: unknown;

const noop = (): void => {};

export function subscribeDriverErrors(): () => void {
  const onError = (message: unknown): void => {
    parked = (message as { error?: unknown }).error;
    queueMicrotask(() => {
      parked = undefined;
    });
  };
  // Subscribing to every phase, not just `error`: on some Node 20 releases mysql2 only checks
  // the `start` channel to decide whether to trace at all.
  const handlers = { start: noop, end: noop, asyncStart: noop, asyncEnd: noop, error: onError };
  const channels = ['mysql2:query', 'mysql2:execute'].map((name) => diagnosticsChannel.tracingChannel(name));
  for (const channel of channels) channel.subscribe(handlers);
  return () => {
    for (const channel of channels) channel.unsubscribe(handlers);
  };
}

/** The driver error parked for the span that is ending now, if any. */
export function takeDriverError(): unknown {
  const error = parked;
  parked = undefined;
  return error;
}
