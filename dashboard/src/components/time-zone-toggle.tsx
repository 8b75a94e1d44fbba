'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { TZ_COOKIE, UTC } from '../lib/zoned-time';

/** A year: the choice is a preference, kept until changed. */
const MAX_AGE_S = 365 * 86_400;

function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || UTC;
}

function choose(zone: string) {
  // Lax: sent on the links that open the dashboard from elsewhere, so they render in the choice too.
  // biome-ignore lint/suspicious/noDocumentCookie: cookieStore is missing from older Firefox and Safari
  document.cookie = `${TZ_COOKIE}=${encodeURIComponent(zone)}; Path=/; Max-Age=${MAX_AGE_S}; SameSite=Lax`;
}

/**
 * UTC or local time, remembered in a cookie the server reads, so every server-rendered time and
 * every chart draws in the same zone. "Local" stores this browser's zone; a browser that moved
 * zones updates it on its next visit.
 */
export function TimeZoneToggle({ zone }: { zone: string }) {
  const router = useRouter();
  const local = zone !== UTC;
  useEffect(() => {
    if (local && browserZone() !== zone) {
      choose(browserZone());
      router.refresh();
    }
  }, [local, zone, router]);
  const pick = (next: string) => {
    choose(next);
    router.refresh();
  };
  return (
    <fieldset className="tz-toggle" data-testid="tz-toggle" data-zone={zone}>
      <legend className="sr-only">Times in</legend>
      <button type="button" data-testid="tz-utc" aria-pressed={!local} onClick={() => pick(UTC)}>
        UTC
      </button>
      <button
        type="button"
        data-testid="tz-local"
        aria-pressed={local}
        title={local ? zone : 'show times in this browser’s time zone'}
        onClick={() => pick(browserZone())}
      >
        Local{local ? ` (${zone})` : ''}
      </button>
    </fieldset>
  );
}
