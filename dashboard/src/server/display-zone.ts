import { cookies } from 'next/headers';
import { cache } from 'react';
import { TZ_COOKIE, zoneFromCookie } from '../lib/zoned-time';

/**
 * The zone this request's times render in: the reader's choice (the time zone toggle's cookie),
 * else UTC. Read on the server, so the page arrives in the zone the charts then draw in.
 */
export const displayZone = cache(async (): Promise<string> => {
  return zoneFromCookie((await cookies()).get(TZ_COOKIE)?.value);
});
