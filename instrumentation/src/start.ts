/**
 * `@faultline/instrumentation/start`: the programmatic SDK start, for services that bootstrap
 * OpenTelemetry in code instead of `--import …/register`. Its own entry because it loads the
 * OpenTelemetry SDK; the main entry stays the pure core (envelope, classifiers, policies) that the
 * collector and any other caller import without loading OpenTelemetry.
 */
export { shutdown, start } from './preload/sdk/start.js';
export type { StartOptions } from './preload/sdk/types.js';
