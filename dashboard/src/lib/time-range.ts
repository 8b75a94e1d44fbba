/** Time range presets and custom ranges, as they travel in the URL (`?range=1h` or `?from=…&to=…`). */
export const RANGE_PRESETS = {
  '15m': 15 * 60,
  '1h': 60 * 60,
  '6h': 6 * 60 * 60,
  '24h': 24 * 60 * 60,
  '7d': 7 * 24 * 60 * 60,
  '30d': 30 * 24 * 60 * 60,
} as const;

export type RangePreset = keyof typeof RANGE_PRESETS;

export const DEFAULT_PRESET: RangePreset = '1h';

export interface TimeRange {
  /** Unix seconds, inclusive. */
  fromS: number;
  /** Unix seconds, exclusive. */
  toS: number;
  /** The preset when the range is relative to now; null for a custom range. */
  preset: RangePreset | null;
  /** Width of one bucket of a time series, chosen for about 60–120 points. */
  bucketS: number;
}

const NICE_BUCKETS = [60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

export function bucketFor(spanS: number): number {
  const wanted = spanS / 120;
  return NICE_BUCKETS.find((b) => b >= wanted) ?? 86400;
}

export function isRangePreset(value: string): value is RangePreset {
  return Object.hasOwn(RANGE_PRESETS, value);
}

function parseInstant(name: string, value: string): number {
  // Accept ISO 8601 (with or without zone: without one it is read as UTC, like the whole UI) or unix seconds.
  const trimmed = value.trim();
  if (/^\d{9,11}$/.test(trimmed)) return Number(trimmed);
  const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(trimmed) ? trimmed : `${trimmed}Z`;
  const ms = trimmed.length > 64 ? Number.NaN : Date.parse(iso);
  if (Number.isNaN(ms)) {
    throw new RangeError(
      `"${name}=${value}" is not a time: use ISO 8601 like 2026-01-31T09:30 (UTC) or unix seconds.`,
    );
  }
  return Math.floor(ms / 1000);
}

/**
 * The widest custom range a page answers: the rollups hold minutes, the charts about 120 buckets,
 * and the store's retention is counted in days, so decades of range only mean a slow page.
 */
export const MAX_RANGE_DAYS = 400;
/** The collector refuses spans that start before 2000 (span-times.ts), so nothing earlier exists. */
const EARLIEST_S = Date.UTC(2000, 0, 1) / 1000;
/** Nor spans more than a day ahead of its clock. */
const LATEST_AHEAD_S = 24 * 3600;

function checkBounds(fromS: number, toS: number, nowS: number): void {
  if (fromS < EARLIEST_S) {
    throw new RangeError(
      `"from" must be in 2000 or later (nothing older is stored), got ${new Date(fromS * 1000).toISOString()}.`,
    );
  }
  if (toS > nowS + LATEST_AHEAD_S) {
    throw new RangeError(`"to" must be at most a day from now, got ${new Date(toS * 1000).toISOString()}.`);
  }
  if (toS - fromS > MAX_RANGE_DAYS * 86400) {
    throw new RangeError(
      `a custom range spans at most ${MAX_RANGE_DAYS} days; narrow "from"/"to" (got ${Math.round((toS - fromS) / 86400)} days).`,
    );
  }
}

/** Reads `range`, or `from` and `to`, from the URL; throws RangeError with a fix-it message. */
export function parseTimeRange(
  input: { range?: string; from?: string; to?: string },
  nowMs: number = Date.now(),
): TimeRange {
  const nowS = Math.floor(nowMs / 1000);
  if (input.from !== undefined || input.to !== undefined) {
    if (input.from === undefined) throw new RangeError('A custom range needs "from" as well as "to".');
    const fromS = parseInstant('from', input.from);
    const toS = input.to === undefined || input.to === '' ? nowS : parseInstant('to', input.to);
    if (toS <= fromS) {
      throw new RangeError(`"from" must be before "to" (got ${input.from} → ${input.to ?? 'now'}).`);
    }
    checkBounds(fromS, toS, nowS);
    return alignToMinutes(fromS, toS, null);
  }
  const preset = input.range ?? DEFAULT_PRESET;
  if (!isRangePreset(preset)) {
    throw new RangeError(
      `"range=${preset}" is not a preset: use one of ${Object.keys(RANGE_PRESETS).join(', ')}, or from/to.`,
    );
  }
  const spanS = RANGE_PRESETS[preset];
  // The upper bound includes the current minute, whose rollup row is still filling.
  return alignToMinutes(nowS + 1 - spanS, nowS + 1, preset);
}

/**
 * The rollups count by whole minutes, so every range is widened to whole minutes: then a panel read
 * from `calls_1m` and a count over raw `failures` rows for the same range agree exactly.
 */
function alignToMinutes(fromS: number, toS: number, preset: RangePreset | null): TimeRange {
  const from = Math.floor(fromS / 60) * 60;
  const to = Math.ceil(toS / 60) * 60;
  return { fromS: from, toS: to, preset, bucketS: bucketFor(to - from) };
}

/** An absolute `from`/`to` value that reads as a time: "2026-01-31T09:30:00Z". */
export function isoParam(unixS: number): string {
  return new Date(unixS * 1000).toISOString().replace('.000Z', 'Z');
}

export function formatUtc(unixS: number): string {
  return new Date(unixS * 1000).toISOString().slice(0, 16).replace('T', ' ');
}
