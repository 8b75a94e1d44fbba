'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { CLASS_STYLES, FAILURE_CLASSES } from '../lib/failure-classes';

export interface ToolBar {
  tool: string;
  /** Failed calls of the tool, per class. */
  [cls: string]: string | number;
}

/** Presentational: stacked horizontal bars of each tool's failed calls, split by class. */
export function HdxAgentToolsChart({ data }: { data: ToolBar[] }) {
  const height = Math.max(140, 70 + data.length * 30);
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart data={data} layout="vertical" margin={{ left: 24, right: 24 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" allowDecimals={false} />
        <YAxis type="category" dataKey="tool" width={140} />
        <Tooltip formatter={(v) => `${Number(v)} failed calls`} />
        <Legend verticalAlign="top" />
        {FAILURE_CLASSES.map((cls) => (
          <Bar
            key={cls}
            dataKey={cls}
            name={`${CLASS_STYLES[cls].glyph} ${cls}`}
            stackId="tool"
            fill={`url(#${CLASS_STYLES[cls].patternId})`}
            stroke={CLASS_STYLES[cls].color}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
