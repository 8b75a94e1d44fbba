'use client';

import {
  Bar,
  BarChart,
  CartesianGrid,
  ReferenceArea,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { CLASS_STYLES, FAILURE_CLASSES } from '../lib/failure-classes';
import { tickStyle, timeTicks } from '../lib/time-ticks';
import { formatZoned } from '../lib/zoned-time';
import { type ChartDeploy, deployMarkerLines } from './deploy-marker-lines';
import { useDragZoom } from './use-drag-zoom';

export interface TimelineBar {
  /** Bucket start, unix seconds. */
  t: number;
  [cls: string]: number;
}

/**
 * Presentational: failures per time bucket, stacked by class, on a time axis (so deploys sit at
 * their exact time); drag across it to zoom the page's range to the buckets dragged over.
 */
export function HdxTimelineChart({
  data,
  bucketS,
  zone,
  deploys = [],
  deployServices = false,
}: {
  /** Every bucket of the range, empty ones included, oldest first. */
  data: TimelineBar[];
  bucketS: number;
  zone: string;
  deploys?: ChartDeploy[];
  /** Name the service on each marker (no service filter: markers of several services). */
  deployServices?: boolean;
}) {
  const first = data[0]?.t ?? 0;
  const last = (data[data.length - 1]?.t ?? 0) + bucketS;
  // Each bar centred on its bucket, so it spans the bucket's time on the axis.
  const bars = data.map((b) => ({ ...b, x: b.t + bucketS / 2 }));
  const { area, handlers } = useDragZoom((a, b) => ({ fromS: a - bucketS / 2, toS: b + bucketS / 2 }));
  const style = tickStyle(first, last);
  return (
    <div
      className="zoomable"
      data-testid="timeline-chart"
      data-bucket-s={bucketS}
      data-from={first}
      data-to={last}
    >
      <ResponsiveContainer width="100%" height={260}>
        <BarChart data={bars} margin={{ left: 8, right: 24, top: 16 }} barCategoryGap={1} {...handlers}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis
            dataKey="x"
            type="number"
            domain={[first, last]}
            ticks={timeTicks(first, last)}
            tickFormatter={(t) => formatZoned(Number(t), zone, style)}
          />
          <YAxis allowDecimals={false} />
          <Tooltip
            labelFormatter={(x) => `${formatZoned(Number(x) - bucketS / 2, zone)} + ${bucketS / 60} min`}
          />
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
          {deployMarkerLines(deploys, deployServices)}
          {area ? <ReferenceArea x1={area.x1} x2={area.x2} fillOpacity={0.15} fill="#3b6fd8" /> : null}
        </BarChart>
      </ResponsiveContainer>
      <p className="muted chart-hint">Drag across the chart to zoom to those times.</p>
    </div>
  );
}
