/**
 * What every reader of the preload's environment shares (config.ts and the readers of each signal
 * and of the sampler it calls): the variables as given, the one warning format, the default
 * collector and the check an endpoint must pass.
 */
export type Env = Record<string, string | undefined>;

/** One problem with a variable: its name, the value (or '<redacted>') and the fix, then the default. */
export type Warn = (name: string, value: string, fix: string) => void;

export const DEFAULT_ENDPOINT = 'http://localhost:4318';

/**
 * An OTLP exporter takes `collector:4318` as a URL with the scheme `collector:` and fails every
 * export: only an http(s) URL is an endpoint.
 */
export function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** A comma-separated list of exporter names (OTEL_*_EXPORTER), trimmed and lower-cased. */
export function exporterNames(env: Env, name: string): string[] {
  const raw = env[name]?.trim();
  if (!raw) return [];
  return raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
}
