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
  /**
   * The service that answered the calls (its own SERVER spans), when it is not the dependency's
   * name: the edge ends at that service's node, the dependency's name under it. '' or absent: none.
   */
  callee?: string;
  /** First-hand failures per class: what a merged edge's dominant class is taken from. */
  byClass?: Record<string, number>;
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

/** The node an edge ends at: the callee's own name when it reported one, else the dependency's. */
function targetName(e: MapEdge): string {
  return e.callee || e.dependency;
}

interface MapNode {
  id: string;
  label: string;
  /** What callers called it by, where that differs from its name (host:port under "inventory"). */
  addresses: string[];
  kind: string;
  depth: number;
}

/**
 * Columns by call depth: a service nobody calls stands left, each callee one column right of its
 * deepest caller (a dependency named like a service, by peer.service or by the callee's own
 * spans, is that service's node). Cycles stop after as many passes as there are nodes.
 */
function layout(edges: MapEdge[]): MapNode[] {
  const services = new Set(edges.map((e) => e.service));
  const id = (name: string, asDependency: boolean) =>
    asDependency && !services.has(name) ? `d:${name}` : `s:${name}`;
  const nodes = new Map<string, MapNode>();
  for (const e of edges) {
    nodes.set(id(e.service, false), {
      id: id(e.service, false),
      label: e.service,
      addresses: [],
      kind: 'service',
      depth: 0,
    });
  }
  for (const e of edges) {
    const name = targetName(e);
    const nid = id(name, true);
    const node = nodes.get(nid) ?? { id: nid, label: name, addresses: [], kind: 'dependency', depth: 0 };
    if (e.dependency !== name && !node.addresses.includes(e.dependency)) node.addresses.push(e.dependency);
    nodes.set(nid, node);
  }
  for (let pass = 0; pass < nodes.size; pass++) {
    let changed = false;
    for (const e of edges) {
      const from = nodes.get(id(e.service, false));
      const to = nodes.get(id(targetName(e), true));
      if (from && to && to !== from && to.depth < from.depth + 1) {
        to.depth = from.depth + 1;
        changed = true;
      }
    }
    if (!changed) break;
  }
  return [...nodes.values()];
}

/**
 * One line per caller → node: edges that reach the same node (a service called by its own name
 * and by host:port) are drawn as one, their numbers added; the line opens the Overview filtered to
 * its edge with the most failures (then calls).
 */
function mergeByTarget(edges: MapEdge[]): MapEdge[] {
  const merged = new Map<string, { edge: MapEdge; parts: MapEdge[] }>();
  for (const e of edges) {
    const key = `${e.service}\u0000${targetName(e)}`;
    const m = merged.get(key);
    if (!m) {
      merged.set(key, { edge: e, parts: [e] });
      continue;
    }
    m.parts.push(e);
  }
  return [...merged.values()].map(({ edge, parts }) => {
    if (parts.length === 1) return edge;
    const lead = [...parts].sort((a, b) => b.failures - a.failures || b.calls - a.calls)[0]!;
    const byClass: Record<string, number> = {};
    for (const p of parts)
      for (const [c, n] of Object.entries(p.byClass ?? {})) byClass[c] = (byClass[c] ?? 0) + n;
    const dominant = Object.entries(byClass)
      .filter(([, n]) => n > 0)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];
    return {
      ...edge,
      dependency: targetName(edge),
      callee: '',
      failures: parts.reduce((s, p) => s + p.failures, 0),
      calls: parts.reduce((s, p) => s + p.calls, 0),
      byClass,
      dominantClass: dominant ?? '',
      href: lead.href,
    };
  });
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
          data: {
            label:
              n.addresses.length === 0 ? (
                visibleText(n.label)
              ) : (
                <span title={`${visibleText(n.label)}, called as ${n.addresses.map(visibleText).join(', ')}`}>
                  <span className="map-node-name">{visibleText(n.label)}</span>
                  <span className="map-node-address" data-testid="map-node-address">
                    {n.addresses.map(visibleText).join(', ')}
                  </span>
                </span>
              ),
          },
          className: `map-node map-node-${n.kind}`,
          draggable: false,
          connectable: false,
          sourcePosition: 'right',
          targetPosition: 'left',
          width: 200,
          height: n.addresses.length === 0 ? 40 : 52,
        } as Node;
      });
    const services = new Set(edges.map((e) => e.service));
    const maxFailures = Math.max(1, ...edges.map((e) => e.failures));
    const flowEdges: Edge[] = mergeByTarget(edges).map((e) => {
      const color = e.dominantClass
        ? (CLASS_STYLES[e.dominantClass as FailureClass]?.color ?? NO_FAILURE_COLOR)
        : NO_FAILURE_COLOR;
      return {
        id: edgeId(e),
        source: `s:${e.service}`,
        target: services.has(targetName(e)) ? `s:${targetName(e)}` : `d:${targetName(e)}`,
        type: 'straight',
        className: `map-edge map-edge-${e.dominantClass || 'none'}`,
        label: e.failures > 0 ? `${e.failures} failed` : `${e.calls} ${e.calls === 1 ? 'call' : 'calls'}`,
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
        ariaLabel: `${visibleText(`${e.service} → ${targetName(e)}`)}${e.callee ? ` (called as ${visibleText(e.dependency)})` : ''}: ${e.failures} first-hand failures${e.dominantClass ? `, mostly ${e.dominantClass}` : ''}`,
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
