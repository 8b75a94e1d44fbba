'use client';

import '@xyflow/react/dist/style.css';
import { visibleText } from '@faultline/sql/format';
import { type Edge, MarkerType, type Node, ReactFlow } from '@xyflow/react';
import { useRouter } from 'next/navigation';
import { useMemo } from 'react';
import { CLASS_STYLES, type FailureClass } from '../lib/failure-classes';

export interface MapEdge {
  /** Exact names (node ids); shown through visibleText, as span data is. */
  service: string;
  dependency: string;
  failures: number;
  calls: number;
  /** '' when no call of the edge failed first-hand. */
  dominantClass: string;
  /** The Overview filtered to this edge. */
  href: string;
}

const COLUMN_GAP = 300;
const ROW_GAP = 70;
const NO_FAILURE_COLOR = '#9aa3ad';

/**
 * Columns by call depth: a service nobody calls stands left, each callee one column right of its
 * deepest caller (a dependency named like a service, peer.service, is that service's node). Cycles
 * stop after as many passes as there are nodes.
 */
function layout(edges: MapEdge[]): { id: string; label: string; kind: string; depth: number }[] {
  const services = new Set(edges.map((e) => e.service));
  const id = (name: string, asDependency: boolean) =>
    asDependency && !services.has(name) ? `d:${name}` : `s:${name}`;
  const nodes = new Map<string, { id: string; label: string; kind: string; depth: number }>();
  for (const e of edges) {
    nodes.set(id(e.service, false), {
      id: id(e.service, false),
      label: e.service,
      kind: 'service',
      depth: 0,
    });
  }
  for (const e of edges) {
    const nid = id(e.dependency, true);
    if (!nodes.has(nid)) nodes.set(nid, { id: nid, label: e.dependency, kind: 'dependency', depth: 0 });
  }
  for (let pass = 0; pass < nodes.size; pass++) {
    let changed = false;
    for (const e of edges) {
      const from = nodes.get(id(e.service, false));
      const to = nodes.get(id(e.dependency, true));
      if (from && to && to !== from && to.depth < from.depth + 1) {
        to.depth = from.depth + 1;
        changed = true;
      }
    }
    if (!changed) break;
  }
  return [...nodes.values()];
}

export function edgeId(e: Pick<MapEdge, 'service' | 'dependency'>): string {
  return `${e.service} → ${e.dependency}`;
}

/** Services and dependencies as nodes; edges coloured by their dominant class, thicker with more failures. */
export function ServiceMap({ edges }: { edges: MapEdge[] }) {
  const router = useRouter();
  const { nodes, flowEdges } = useMemo(() => {
    const laid = layout(edges);
    const rows = new Map<number, number>();
    const nodes: Node[] = laid
      .sort((a, b) => a.depth - b.depth || a.label.localeCompare(b.label))
      .map((n) => {
        const row = rows.get(n.depth) ?? 0;
        rows.set(n.depth, row + 1);
        return {
          id: n.id,
          position: { x: n.depth * COLUMN_GAP, y: row * ROW_GAP },
          data: { label: visibleText(n.label) },
          className: `map-node map-node-${n.kind}`,
          draggable: false,
          connectable: false,
          sourcePosition: 'right',
          targetPosition: 'left',
          width: 200,
          height: 40,
        } as Node;
      });
    const services = new Set(edges.map((e) => e.service));
    const maxFailures = Math.max(1, ...edges.map((e) => e.failures));
    const flowEdges: Edge[] = edges.map((e) => {
      const color = e.dominantClass
        ? (CLASS_STYLES[e.dominantClass as FailureClass]?.color ?? NO_FAILURE_COLOR)
        : NO_FAILURE_COLOR;
      return {
        id: edgeId(e),
        source: `s:${e.service}`,
        target: services.has(e.dependency) ? `s:${e.dependency}` : `d:${e.dependency}`,
        type: 'straight',
        className: `map-edge map-edge-${e.dominantClass || 'none'}`,
        label: e.failures > 0 ? `${e.failures} failed` : `${e.calls} calls`,
        style: { stroke: color, strokeWidth: 1.5 + 8 * Math.sqrt(e.failures / maxFailures) },
        // In user space: a marker scaled by the stroke would dwarf the nodes on the thickest edges.
        markerEnd: {
          type: MarkerType.ArrowClosed,
          color,
          width: 18,
          height: 18,
          markerUnits: 'userSpaceOnUse',
        },
        data: { href: e.href, dominantClass: e.dominantClass },
        ariaLabel: `${visibleText(edgeId(e))}: ${e.failures} first-hand failures${e.dominantClass ? `, mostly ${e.dominantClass}` : ''}`,
        focusable: true,
      };
    });
    return { nodes, flowEdges };
  }, [edges]);
  const height = Math.max(160, Math.max(...[...nodes.map((n) => n.position.y)], 0) + 120);
  return (
    <div className="service-map" data-testid="service-map" style={{ height }}>
      <ReactFlow
        nodes={nodes}
        edges={flowEdges}
        fitView
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable
        panOnScroll={false}
        zoomOnScroll={false}
        onEdgeClick={(_, edge) => {
          const href = (edge.data as { href?: string } | undefined)?.href;
          if (href) router.push(href);
        }}
      />
    </div>
  );
}
