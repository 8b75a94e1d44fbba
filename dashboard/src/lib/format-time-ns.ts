/**
 * An exact span time (nanoseconds since the epoch, as text: a double cannot hold them) as an
 * ISO-8601 UTC time with all nine fraction digits, so two events a microsecond apart read apart.
 */
export function formatTimeNs(ns: string): string {
  let n: bigint;
  try {
    n = BigInt(ns);
  } catch {
    return ns;
  }
  const seconds = n / 1_000_000_000n;
  const fraction = (n % 1_000_000_000n).toString().padStart(9, '0');
  const iso = new Date(Number(seconds) * 1000).toISOString();
  return `${iso.slice(0, 19)}.${fraction}Z`;
}
