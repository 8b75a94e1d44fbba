/** The fields of a span the critical path is computed from (a RequestSpan has them all). */
export interface CriticalPathSpan {
  spanId: string;
  parentSpanId: string;
  startNs: number;
  durationNs: number;
}

/** A stretch of the request's time during which `spanId` itself was what the request waited on. */
export interface CriticalSection {
  spanId: string;
  startNs: number;
  endNs: number;
}

export interface CriticalPath {
  /** Every span on the chain, root first, in the order the walk reached them. */
  spanIds: string[];
  /** The root's time cut into the sections each span of the chain accounts for, latest first. */
  sections: CriticalSection[];
}

interface Window {
  span: CriticalPathSpan;
  start: number;
  end: number;
}

/**
 * The chain of spans that sets the request's end-to-end duration, by the algorithm of Jaeger's
 * trace critical path (jaeger-ui `computeCriticalPath`): from the root's end, walk back through
 * the child that finishes last; when that child's own walk is done, continue from its start
 * through the last child that finished before it, and so on; time no child covers is the
 * parent's own. As Jaeger does, a child is first clipped to its parent's window (an async child
 * that outlives its parent counts until the parent ends; one wholly outside it is not part of it),
 * and grandchildren to the clipped window.
 *
 * One deliberate difference: a child that ends exactly where the next one starts is on the path
 * (Jaeger requires ending strictly before), so back-to-back sequential calls all count.
 *
 * The root is the span without a parent among `spans` that ends last (a span whose parent never
 * arrived is considered only when no span is a true root). Iterative, so a 500-deep chain cannot
 * overflow the stack; a duplicate span id counts once.
 */
export function criticalPath(spans: readonly CriticalPathSpan[]): CriticalPath {
  const byId = new Map<string, CriticalPathSpan>();
  for (const s of spans) if (!byId.has(s.spanId)) byId.set(s.spanId, s);
  const children = new Map<string, CriticalPathSpan[]>();
  const trueRoots: CriticalPathSpan[] = [];
  const orphans: CriticalPathSpan[] = [];
  for (const s of byId.values()) {
    const pid = s.parentSpanId;
    if (pid !== '' && pid !== s.spanId && byId.has(pid)) {
      const list = children.get(pid);
      if (list) list.push(s);
      else children.set(pid, [s]);
    } else (pid === '' ? trueRoots : orphans).push(s);
  }
  const candidates = trueRoots.length > 0 ? trueRoots : orphans;
  const root = candidates.reduce<CriticalPathSpan | undefined>(
    (best, s) =>
      !best || endOf(s) > endOf(best) || (endOf(s) === endOf(best) && s.startNs < best.startNs) ? s : best,
    undefined,
  );
  if (!root) return { spanIds: [], sections: [] };

  const spanIds: string[] = [];
  const sections: CriticalSection[] = [];
  const reached = new Set<string>();
  // A frame walks one span back from `boundary`: each step takes the next child (latest end
  // first) that ends by the boundary, descends into it, then resumes from that child's start.
  interface Frame {
    w: Window;
    kids: Window[];
    next: number;
    boundary: number;
  }
  const enter = (w: Window): Frame => {
    reached.add(w.span.spanId);
    spanIds.push(w.span.spanId);
    const kids = (children.get(w.span.spanId) ?? [])
      .filter((c) => !reached.has(c.spanId))
      .map((c) => clip(c, w))
      .filter((c): c is Window => c !== null)
      .sort((a, b) => b.end - a.end || a.start - b.start);
    return { w, kids, next: 0, boundary: w.end };
  };
  const stack: Frame[] = [enter({ span: root, start: root.startNs, end: endOf(root) })];
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    while (f.next < f.kids.length && f.kids[f.next]!.end > f.boundary) f.next++;
    const child = f.kids[f.next];
    if (child && !reached.has(child.span.spanId)) {
      f.next++;
      if (child.end < f.boundary)
        sections.push({ spanId: f.w.span.spanId, startNs: child.end, endNs: f.boundary });
      f.boundary = child.start;
      stack.push(enter(child));
      continue;
    }
    if (child) {
      f.next++;
      continue;
    }
    if (f.w.start < f.boundary)
      sections.push({ spanId: f.w.span.spanId, startNs: f.w.start, endNs: f.boundary });
    stack.pop();
  }
  return { spanIds, sections };
}

function endOf(s: CriticalPathSpan): number {
  return s.startNs + Math.max(0, s.durationNs);
}

/** A child's time within its parent's window, or null when it lies wholly outside it. */
function clip(child: CriticalPathSpan, parent: Window): Window | null {
  const start = child.startNs;
  const end = endOf(child);
  const inside = start >= parent.start && end <= parent.end;
  const s = Math.max(start, parent.start);
  const e = Math.min(end, parent.end);
  return inside || s < e ? { span: child, start: s, end: e } : null;
}
