'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { formatZoned } from '../lib/zoned-time';

const INTERVAL_MS = 10_000;

/**
 * router.refresh() re-renders the server components for the current URL, so filters (which live in
 * the URL) and client state such as an open <details> survive each refresh.
 */
export function LiveRefresh({ renderedAt, zone }: { renderedAt: number; zone: string }) {
  const router = useRouter();
  const [live, setLive] = useState(true);
  useEffect(() => {
    if (!live) return;
    const id = setInterval(() => router.refresh(), INTERVAL_MS);
    return () => clearInterval(id);
  }, [live, router]);
  return (
    <div className="live-refresh">
      <label>
        <input type="checkbox" checked={live} onChange={(e) => setLive(e.target.checked)} /> live (every{' '}
        {INTERVAL_MS / 1000}s)
      </label>
      <span className="muted" data-testid="rendered-at">
        updated {formatZoned(renderedAt / 1000, zone, 'full').slice(11)}
      </span>
    </div>
  );
}
