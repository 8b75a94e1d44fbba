'use client';

import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

export interface BurnChartPoint {
  /** Bucket start, epoch seconds. */
  t: number;
  [window: string]: number | null;
}

export interface BurnThreshold {
  factor: number;
  label: string;
}

const LINE_COLORS = ['#1f4e99', '#b35c00', '#2a7a2a'];
const clock = (t: number) => new Date(t * 1000).toISOString().slice(11, 16);

/** Presentational: burn rate per rolling window over time, against the rules' factors. */
export function HdxBurnChart({
  data,
  windows,
  thresholds,
}: {
  data: BurnChartPoint[];
  windows: string[];
  thresholds: BurnThreshold[];
}) {
  const peak = Math.max(0, ...data.flatMap((p) => windows.map((w) => p[w] ?? 0)));
  const top = Math.max(Math.ceil(Math.max(peak, ...thresholds.map((t) => t.factor)) * 1.1), 2);
  return (
    <ResponsiveContainer width="100%" height={240}>
      <LineChart data={data} margin={{ left: 8, right: 72, top: 8 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="t" type="number" domain={['dataMin', 'dataMax']} tickFormatter={clock} />
        <YAxis domain={[0, top]} unit="×" width={56} />
        <Tooltip
          labelFormatter={(t) => `${clock(Number(t))} UTC`}
          formatter={(v) => `${Number(v).toFixed(1)}×`}
        />
        <Legend />
        {thresholds.map((t) => (
          <ReferenceLine
            key={t.label}
            y={t.factor}
            stroke="#b00"
            strokeDasharray="4 2"
            label={{ value: t.label, position: 'right', fontSize: 11 }}
          />
        ))}
        {windows.map((w, i) => (
          <Line
            key={w}
            dataKey={w}
            name={`burn over ${w}`}
            stroke={LINE_COLORS[i % LINE_COLORS.length]}
            dot={false}
            connectNulls={false}
            isAnimationActive={false}
          />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}
