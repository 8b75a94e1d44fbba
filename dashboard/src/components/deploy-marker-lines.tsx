'use client';

import { ReferenceLine } from 'recharts';

/** A deploy as a chart draws it (the container formats its time in the reader's zone). */
export interface ChartDeploy {
  service: string;
  version: string;
  /** Its first span, epoch seconds (fractional). */
  atS: number;
  /** "cart 2.0.0 at 2026-01-31 09:30:12 UTC, after 1.0.0". */
  title: string;
}

export const DEPLOY_COLOR = '#6d28d9';

/**
 * A dashed vertical line per deploy, labelled with its version, at its exact time: elements (not a
 * component) because recharts reads reference lines from the chart's own children.
 */
export function deployMarkerLines(markers: readonly ChartDeploy[], withService: boolean) {
  return markers.map((m) => (
    <ReferenceLine
      key={`${m.service}\u0000${m.version}\u0000${m.atS}`}
      x={m.atS}
      ifOverflow="discard"
      shape={(p: { x1?: number; y1?: number; x2?: number; y2?: number }) => (
        <g
          data-testid="deploy-marker"
          data-service={m.service}
          data-version={m.version}
          data-at={m.atS}
          data-x={p.x1}
        >
          <title>{m.title}</title>
          <line x1={p.x1} y1={p.y1} x2={p.x2} y2={p.y2} stroke={DEPLOY_COLOR} strokeDasharray="4 3" />
        </g>
      )}
      label={{
        value: `▲ ${withService ? `${m.service} ` : ''}${m.version}`,
        position: 'insideTopLeft',
        fontSize: 11,
        fill: DEPLOY_COLOR,
      }}
    />
  ));
}
