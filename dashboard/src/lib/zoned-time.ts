/**
 * Times shown in UTC or in the reader's zone, by choice. The choice is a cookie holding 'UTC' or
 * the IANA zone the browser reported when "local" was picked, so the server renders every time in
 * it and the client's charts format theirs with the same zone: the two never disagree.
 */
export const TZ_COOKIE = 'faultline_tz';
export const UTC = 'UTC';

/** Whether Intl knows the zone (a cookie is user input). */
export function isTimeZone(zone: string): boolean {
  if (zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The zone a cookie value names (written bare or URI-encoded), else UTC. */
export function zoneFromCookie(value: string | undefined): string {
  let zone = value ?? '';
  try {
    zone = decodeURIComponent(zone);
  } catch {
    return UTC;
  }
  return isTimeZone(zone) ? zone : UTC;
}

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallParts(ms: number, zone: string): Parts {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  const get = (type: string) => Number(f.formatToParts(ms).find((p) => p.type === type)?.value ?? 0);
  return {
    year: get('year'),
    month: get('month'),
    day: get('day'),
    hour: get('hour') % 24,
    minute: get('minute'),
    second: get('second'),
  };
}

/** Minutes the zone is ahead of UTC at that instant (DST included). */
export function zoneOffsetMinutes(ms: number, zone: string): number {
  const p = wallParts(ms, zone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** "+01:00" for a zone, "UTC" for UTC. */
export function zoneSuffix(ms: number, zone: string): string {
  if (zone === UTC) return UTC;
  const off = zoneOffsetMinutes(ms, zone);
  return `${off < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
}

export type TimeStyle = 'full' | 'short' | 'clock' | 'input';

/**
 * Unix seconds as wall time in the zone, 24-hour: full "2026-01-31 09:30:00 UTC", short
 * "01-31 09:30:00" (a column whose header names the zone), clock "09:30", input "2026-01-31 09:30"
 * (the custom range's text).
 */
export function formatZoned(unixS: number, zone: string, style: TimeStyle = 'full'): string {
  const ms = unixS * 1000;
  const p = wallParts(ms, zone);
  const date = `${p.year}-${pad(p.month)}-${pad(p.day)}`;
  const hm = `${pad(p.hour)}:${pad(p.minute)}`;
  const hms = `${hm}:${pad(p.second)}`;
  if (style === 'clock') return hm;
  if (style === 'input') return `${date} ${hm}`;
  if (style === 'short') return `${pad(p.month)}-${pad(p.day)} ${hms}`;
  return `${date} ${hms} ${zoneSuffix(ms, zone)}`;
}

const INPUT = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})$/;

/**
 * "2026-01-31 09:30" read as wall time in the zone → unix seconds; null when it is not one. A wall
 * time skipped by a DST change reads as the instant the clock would have shown it.
 */
export function parseZonedInput(text: string, zone: string): number | null {
  const m = INPUT.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  const guess = Date.UTC(y, mo - 1, d, h, mi);
  if (new Date(guess).getUTCDate() !== d) return null;
  // The zone's offset at the guess, then at the instant found (they differ only near a DST change).
  let ms = guess - zoneOffsetMinutes(guess, zone) * 60_000;
  ms = guess - zoneOffsetMinutes(ms, zone) * 60_000;
  return Math.floor(ms / 1000);
}
