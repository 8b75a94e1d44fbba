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

export function formatTimeUtc(unixS: number): string {
  return `${new Date(unixS * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** "12-05 05:11:40": month, day and time, UTC, for a table column whose header says UTC. */
export function formatTimeShort(unixS: number): string {
  return new Date(unixS * 1000).toISOString().slice(5, 19).replace('T', ' ');
}
