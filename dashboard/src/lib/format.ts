import { formatZoned, UTC } from './zoned-time';

const integer = new Intl.NumberFormat('en-US');

export function formatCount(n: number): string {
  return integer.format(Math.round(n));
}

export function formatPercent(fraction: number, digits = 1): string {
  return `${(fraction * 100).toFixed(digits)}%`;
}

export function formatDurationNs(ns: number): string {
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(2)} s`;
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(1)} ms`;
  return `${(ns / 1e3).toFixed(0)} µs`;
}

/** "2026-12-05 05:11:40 UTC" (or "+01:00" in a zone): the reader's zone, chosen by the toggle. */
export function formatTime(unixS: number, zone: string = UTC): string {
  return formatZoned(unixS, zone, 'full');
}

/** "12-05 05:11:40": month, day and time, for a table column whose header names the zone. */
export function formatTimeShort(unixS: number, zone: string = UTC): string {
  return formatZoned(unixS, zone, 'short');
}

/** A count with its noun, singular for one: "1 span", "3 services". */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}
