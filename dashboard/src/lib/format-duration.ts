/** A span of seconds as an on-call engineer reads it: "3.2 d", "5.0 h", "12 min". */
export function formatSeconds(s: number): string {
  if (s >= 86_400) return `${(s / 86_400).toFixed(1)} d`;
  if (s >= 3_600) return `${(s / 3_600).toFixed(1)} h`;
  if (s >= 60) return `${Math.round(s / 60)} min`;
  return `${Math.round(s)} s`;
}

/** A burn rate: "34.73×", or "—" when nothing was called in the window. */
export function formatBurn(rate: number | null): string {
  return rate === null ? '—' : `${rate.toFixed(2)}×`;
}
