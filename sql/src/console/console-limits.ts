import type { RunReadOnlyOptions } from '../types.js';
import type { ConsoleSettings } from './console-connection.js';

/** The limits one console statement runs under, all enforced by the engine. */
export interface ConsoleLimits {
  maxRows: number;
  maxExecutionSeconds: number;
  maxResultBytes: number;
  maxMemoryBytes: number;
}

export const DEFAULT_LIMITS: ConsoleLimits = {
  maxRows: 10_000,
  maxExecutionSeconds: 10,
  maxResultBytes: 64 * 1024 * 1024,
  maxMemoryBytes: 512 * 1024 * 1024,
};

function positiveInt(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${what} must be a positive integer, got ${value}`);
  return value;
}

export function resolveLimits(opts: RunReadOnlyOptions = {}): ConsoleLimits {
  return {
    maxRows: positiveInt(opts.maxRows, DEFAULT_LIMITS.maxRows, 'maxRows'),
    maxExecutionSeconds: positiveInt(
      opts.maxExecutionSeconds,
      DEFAULT_LIMITS.maxExecutionSeconds,
      'maxExecutionSeconds',
    ),
    maxResultBytes: positiveInt(opts.maxResultBytes, DEFAULT_LIMITS.maxResultBytes, 'maxResultBytes'),
    maxMemoryBytes: positiveInt(opts.maxMemoryBytes, DEFAULT_LIMITS.maxMemoryBytes, 'maxMemoryBytes'),
  };
}

/**
 * The settings a console connection opens with. `readonly = 1` comes with them, so neither a
 * SETTINGS clause nor SET can lift a limit (the policy refuses both before that, too).
 *
 * - One more row than asked and `break`: the engine stops producing rows instead of failing, and
 *   the extra row tells the caller the result was cut. Blocks of 8 192 rows bound how far past
 *   the cap it reads.
 * - One thread: a heavy console query takes at most one core from ingest and the dashboard.
 * - `log_comment` tags the query so it can be found in system.processes and stopped when its
 *   client goes away.
 */
export function consoleSettings(limits: ConsoleLimits, tag: string): ConsoleSettings {
  return {
    readonly: 1,
    max_result_rows: limits.maxRows + 1,
    max_result_bytes: limits.maxResultBytes,
    result_overflow_mode: 'break',
    max_block_size: 8192,
    max_execution_time: limits.maxExecutionSeconds,
    timeout_overflow_mode: 'throw',
    max_memory_usage: limits.maxMemoryBytes,
    max_threads: 1,
    allow_introspection_functions: 0,
    output_format_json_quote_64bit_integers: 0,
    cancel_http_readonly_queries_on_client_close: 1,
    log_comment: tag,
  };
}

/**
 * The settings of the connection that parses a statement before it runs: the same, except that a
 * WITH before a UNION stays where it was written. By default ClickHouse copies it into every
 * SELECT of the union (in name order) before EXPLAIN AST prints, which would break the pairing of
 * WITH elements with their names (console-policy.ts models that copy in its scopes instead).
 */
export function checkSettings(settings: ConsoleSettings): ConsoleSettings {
  return { ...settings, enable_global_with_statement: 0 };
}

/**
 * Settings for reading the engine's catalogue (system.functions, the parse of sql/schema): without
 * a console user's row cap, which would cut the catalogue short, and `readonly = 2`, because the
 * parser applies a statement's SETTINGS clause (some schema views have one) and readonly = 1
 * refuses that. Only Faultline's own SQL runs on this connection.
 */
export const CATALOGUE_SETTINGS: ConsoleSettings = {
  readonly: 2,
  max_result_rows: 0,
  max_result_bytes: 0,
  max_execution_time: 30,
  max_threads: 1,
  output_format_json_quote_64bit_integers: 0,
};
