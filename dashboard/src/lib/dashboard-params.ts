import { parseTimeRange, type TimeRange } from './time-range';

/** Everything a page reads from its URL. Filters live in the URL so a link (or a refresh) keeps them. */
export interface DashboardParams {
  range: TimeRange;
  /** '' means every service. */
  service: string;
  /** '' means every source. */
  source: string;
  /** SLO target in percent of successful calls, e.g. 99.5. */
  slo: number;
}

export type SearchParams = Record<string, string | string[] | undefined>;

export const DEFAULT_SLO = 99.5;

function single(sp: SearchParams, key: string): string | undefined {
  const value = sp[key];
  return Array.isArray(value) ? value[0] : value;
}

export function defaultSlo(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.FAULTLINE_SLO_TARGET;
  if (raw === undefined || raw === '') return DEFAULT_SLO;
  return parseSlo(raw, 'FAULTLINE_SLO_TARGET');
}

function parseSlo(raw: string, name: string): number {
  const slo = Number(raw);
  if (!Number.isFinite(slo) || slo <= 0 || slo >= 100) {
    throw new RangeError(
      `${name}=${raw} is not an SLO target: give a percentage between 0 and 100, e.g. 99.5.`,
    );
  }
  return slo;
}

const NAME_RE = /^[\w.:/@-]{0,200}$/;

function parseName(sp: SearchParams, key: string): string {
  const value = single(sp, key) ?? '';
  if (!NAME_RE.test(value)) {
    throw new RangeError(
      `"${key}" must be a plain name (letters, digits, . _ - : / @), got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

/** Throws RangeError with a message that says what to change in the URL. */
export function parseDashboardParams(sp: SearchParams, nowMs: number = Date.now()): DashboardParams {
  const sloRaw = single(sp, 'slo');
  return {
    range: parseTimeRange(
      { range: single(sp, 'range'), from: single(sp, 'from'), to: single(sp, 'to') },
      nowMs,
    ),
    service: parseName(sp, 'service'),
    source: parseName(sp, 'source'),
    slo: sloRaw === undefined || sloRaw === '' ? defaultSlo() : parseSlo(sloRaw, 'slo'),
  };
}

/** The ClickHouse parameters every filtered panel query declares. */
export function filterQueryParams(p: DashboardParams): Record<string, string | number> {
  return { from: p.range.fromS, to: p.range.toS, service: p.service, source: p.source };
}
