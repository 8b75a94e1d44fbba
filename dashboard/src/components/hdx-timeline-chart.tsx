'use client';

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { CLASS_STYLES, FAILURE_CLASSES } from '../lib/failure-classes';

export interface TimelineBar {
  /** Bucket start, unix seconds. */
  t: number;
  [cls: string]: number;
}

function label(t: number): string {
  return new Date(t * 1000).toISOString().slice(5, 16).replace('T', ' ');
}

/** Presentational: failures per time bucket, stacked by class. */
export function HdxTimelineChart({ data }: { data: TimelineBar[] }) {
  return (
    <ResponsiveContainer width="100%" height={260}>
      <BarChart data={data} margin={{ left: 8, right: 24 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="t" tickFormatter={label} minTickGap={40} />
        <YAxis allowDecimals={false} />
        <Tooltip labelFormatter={(t) => `${label(Number(t))} UTC`} />
        {FAILURE_CLASSES.map((cls) => (
          <Bar
            key={cls}
            dataKey={cls}
            name={`${CLASS_STYLES[cls].glyph} ${cls}`}
            stackId="failures"
            fill={`url(#${CLASS_STYLES[cls].patternId})`}
            stroke={CLASS_STYLES[cls].color}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
