'use client';

import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { tickStyle, timeTicks } from '../lib/time-ticks';
import { formatZoned } from '../lib/zoned-time';
import { type ChartDeploy, deployMarkerLines } from './deploy-marker-lines';
import { useDragZoom } from './use-drag-zoom';

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

/**
 * Presentational: burn rate per rolling window over time, against the rules' factors, the
 * service's deploys marked; drag across it to zoom the page to those times.
 */
export function HdxBurnChart({
  data,
  windows,
  thresholds,
  fromS,
  toS,
  bucketS,
  zone,
  deploys = [],
}: {
  data: BurnChartPoint[];
  windows: string[];
  thresholds: BurnThreshold[];
  /** The time axis (unix seconds): the data's own span, or the range picked. */
  fromS: number;
  toS: number;
  bucketS: number;
  zone: string;
  deploys?: ChartDeploy[];
}) {
  const peak = Math.max(0, ...data.flatMap((p) => windows.map((w) => p[w] ?? 0)));
  const top = Math.max(Math.ceil(Math.max(peak, ...thresholds.map((t) => t.factor)) * 1.1), 2);
  const { area, handlers } = useDragZoom((a, b) => ({ fromS: a, toS: b + bucketS }));
  const style = tickStyle(fromS, toS);
  return (
    <div className="zoomable" data-from={fromS} data-to={toS} data-bucket-s={bucketS}>
      <ResponsiveContainer width="100%" height={240}>
        <LineChart data={data} margin={{ left: 8, right: 72, top: 16 }} {...handlers}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            dataKey="t"
            type="number"
            domain={[fromS, toS]}
            ticks={timeTicks(fromS, toS)}
            tickFormatter={(t) => formatZoned(Number(t), zone, style)}
          />
          <YAxis domain={[0, top]} unit="×" width={56} />
          <Tooltip
            labelFormatter={(t) => formatZoned(Number(t), zone)}
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
              dot={data.length < 3}
              connectNulls={false}
              isAnimationActive={false}
            />
          ))}
          {deployMarkerLines(deploys, false)}
          {area ? <ReferenceArea x1={area.x1} x2={area.x2} fillOpacity={0.15} fill="#3b6fd8" /> : null}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
