import { type Env, exporterNames, type Warn } from './env-reading.js';
import { readSideSignalEndpoint, type SideSignalEndpoint } from './side-signal-endpoint.js';
import type { StartOptions } from './types.js';

/**
 * OTEL_LOGS_EXPORTER's values (the specification's). The preload bundles the OTLP/HTTP one only:
 * `console` alone exports nothing (warned), `none` turns the logs off.
 */
const LOGS_EXPORTERS = new Set(['otlp', 'console', 'none']);

/** How the application's logged errors leave the process (sdk/log-export.ts). */
export interface LogSettings extends SideSignalEndpoint {
  /**
   * On unless OTEL_LOGS_EXPORTER says `none` (or names no exporter the preload has): unset means
   * `otlp`, the specification's default and NodeSDK's. Only failure records are exported
   * (pipeline/failure-logger.ts), so the default sends the errors the application logs, not its
   * every line.
   */
  enabled: boolean;
}

export function readLogSettings(options: StartOptions, env: Env, warn: Warn): LogSettings {
  const exporters = readLogsExporters(env, warn);
  return {
    enabled: !exporters.includes('none') && (exporters.length === 0 || exporters.includes('otlp')),
    ...readSideSignalEndpoint('logs', options, env, warn),
  };
}

/** The known exporters named (an unknown name is warned and left out, as if unset). */
function readLogsExporters(env: Env, warn: Warn): string[] {
  const names = exporterNames(env, 'OTEL_LOGS_EXPORTER');
  for (const name of names) {
    if (!LOGS_EXPORTERS.has(name)) {
      warn('OTEL_LOGS_EXPORTER', name, 'use otlp, or none to stop exporting logged errors (ignored)');
    } else if (name === 'console' && !names.includes('otlp')) {
      warn('OTEL_LOGS_EXPORTER', name, 'the preload bundles otlp only: use otlp or none (nothing exported)');
    }
  }
  return names.filter((name) => LOGS_EXPORTERS.has(name));
}
