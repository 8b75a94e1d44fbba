'use client';

import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

export interface CompoundingPoint {
  steps: number;
  /** Measured end-to-end success, percent. */
  measured: number;
  /** Per-step reliability ^ steps, percent. */
  predicted: number;
}

/** Presentational: measured end-to-end success per workflow length against p^n. */
export function HdxCompoundingChart({ data }: { data: CompoundingPoint[] }) {
  return (
    <ResponsiveContainer width="100%" height={260}>
      <ComposedChart data={data} margin={{ left: 8, right: 24 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis
          dataKey="steps"
          label={{ value: 'steps per workflow', position: 'insideBottom', offset: -2 }}
          height={40}
        />
        <YAxis unit="%" domain={[0, 100]} />
        <Tooltip formatter={(v) => `${Number(v).toFixed(1)}%`} />
        <Legend verticalAlign="top" />
        <Bar dataKey="measured" name="measured end-to-end success" fill="#8fa3bf" isAnimationActive={false} />
        <Line
          dataKey="predicted"
          name="per-step reliability ^ steps"
          stroke="#b42318"
          strokeDasharray="5 3"
          dot={{ r: 3 }}
          isAnimationActive={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
