'use client';

import {
  Bar,
  BarChart,
  CartesianGrid,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { CLASS_STYLES, FAILURE_CLASSES } from '../lib/failure-classes';

export interface BudgetBar {
  service: string;
  /** Percent of the service's error budget consumed, per class. */
  [cls: string]: string | number;
}

/** Presentational: stacked horizontal bars of budget consumed per service, split by class. */
export function HdxBudgetChart({ data }: { data: BudgetBar[] }) {
  const height = Math.max(120, 40 + data.length * 34);
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart data={data} layout="vertical" margin={{ left: 24, right: 24 }}>
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis
          type="number"
          unit="%"
          domain={[0, (max: number) => Math.max(100, Math.ceil(max / 50) * 50)]}
        />
        <YAxis type="category" dataKey="service" width={120} />
        <Tooltip formatter={(v) => `${Number(v).toFixed(1)}% of budget`} />
        <ReferenceLine
          x={100}
          stroke="#b00"
          strokeDasharray="4 2"
          label={{ value: 'budget', position: 'top' }}
        />
        {FAILURE_CLASSES.map((cls) => (
          <Bar
            key={cls}
            dataKey={cls}
            name={`${CLASS_STYLES[cls].glyph} ${cls}`}
            stackId="budget"
            fill={`url(#${CLASS_STYLES[cls].patternId})`}
            stroke={CLASS_STYLES[cls].color}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
