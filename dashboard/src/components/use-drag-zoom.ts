'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import type { MouseHandlerDataParam } from 'recharts';
import { isoParam } from '../lib/time-range';

/** The x value under the pointer (a time in seconds on every time chart), or null off the plot. */
function xOf(state: MouseHandlerDataParam | undefined): number | null {
  const v = Number(state?.activeLabel);
  return state?.activeLabel === undefined || !Number.isFinite(v) ? null : v;
}

/**
 * Drag-to-zoom on a time chart: press, drag across the times wanted, release. The selection is
 * drawn as a ReferenceArea while dragging; on release `toRange` turns the two x values under the
 * pointer into the range, which replaces the URL's range with absolute from/to (every other filter
 * kept), so the zoomed view is a link like any other. A click without a drag changes nothing.
 */
export function useDragZoom(toRange: (a: number, b: number) => { fromS: number; toS: number }) {
  const router = useRouter();
  const [drag, setDrag] = useState<{ a: number; b: number } | null>(null);
  const area =
    drag && drag.a !== drag.b ? { x1: Math.min(drag.a, drag.b), x2: Math.max(drag.a, drag.b) } : null;
  const handlers = {
    onMouseDown: (s: MouseHandlerDataParam) => {
      const x = xOf(s);
      if (x !== null) setDrag({ a: x, b: x });
    },
    onMouseMove: (s: MouseHandlerDataParam) => {
      const x = xOf(s);
      if (drag && x !== null && x !== drag.b) setDrag({ a: drag.a, b: x });
    },
    onMouseUp: () => {
      if (drag && drag.a !== drag.b) {
        const { fromS, toS } = toRange(Math.min(drag.a, drag.b), Math.max(drag.a, drag.b));
        const next = new URLSearchParams(window.location.search);
        next.delete('range');
        next.set('from', isoParam(fromS));
        next.set('to', isoParam(toS));
        router.push(`${window.location.pathname}?${next.toString()}`);
      }
      setDrag(null);
    },
  };
  return { area, handlers };
}
