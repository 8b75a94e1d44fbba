/**
 * `@faultline/instrumentation/sdk`: Faultline inside an OpenTelemetry setup the service builds
 * itself (its own NodeSDK, auto-instrumentations, exporter and sampler), with the same envelope
 * rows as the preload. Its own entry because it loads the OpenTelemetry SDK parts the preload
 * uses; the main entry stays the pure core.
 */
export { faultline } from './preload/setup/faultline.js';
export type { Faultline, FaultlineOptions, InstrumentationList } from './preload/setup/types.js';
