/** The fields of a span the tree is built from (a RequestSpan has them all). */
export interface TreeSpanInput {
  spanId: string;
  parentSpanId: string;
  startNs: number;
  failed: boolean;
  firstHand: boolean;
}

export interface SpanTreeNode<S extends TreeSpanInput> {
  span: S;
  /** 1 for a root (aria-level counts from 1). */
  level: number;
  children: SpanTreeNode<S>[];
  /** A span with a parent id none of the spans carries: shown at the root, flagged. */
  orphan: boolean;
  /** For a failure that is not first-hand: the first first-hand failure below it, which it echoes. */
  echoes: S | null;
}

const byStart = <S extends TreeSpanInput>(a: SpanTreeNode<S>, b: SpanTreeNode<S>) =>
  a.span.startNs - b.span.startNs;

/**
 * Nests spans by parent/child across services (a parent id is unique across services within a
 * trace), siblings in start order. Spans arrive in any order and some never arrive: a span whose
 * parent is not among `spans` becomes a root marked orphan rather than being dropped. Iterative,
 * so a 500-deep chain cannot overflow the stack.
 */
export function buildSpanTree<S extends TreeSpanInput>(spans: S[]): SpanTreeNode<S>[] {
  const nodes = new Map<string, SpanTreeNode<S>>();
  for (const span of spans) {
    // A duplicate span id (a re-sent batch) is shown once.
    if (!nodes.has(span.spanId))
      nodes.set(span.spanId, { span, level: 1, children: [], orphan: false, echoes: null });
  }
  const roots: SpanTreeNode<S>[] = [];
  for (const node of nodes.values()) {
    const pid = node.span.parentSpanId;
    const parent = pid !== '' && pid !== node.span.spanId ? nodes.get(pid) : undefined;
    if (parent) parent.children.push(node);
    else {
      node.orphan = pid !== '';
      roots.push(node);
    }
  }
  // A cycle (hostile or corrupt parent ids) leaves its spans unreachable from any root: cut it at
  // its earliest span, shown as a root.
  const reached = new Set<string>();
  const order = walk(roots.sort(byStart), reached);
  for (const node of [...nodes.values()].sort(byStart)) {
    if (reached.has(node.span.spanId)) continue;
    const parent = nodes.get(node.span.parentSpanId);
    if (parent) parent.children = parent.children.filter((c) => c !== node);
    node.orphan = true;
    roots.push(node);
    order.push(...walk([node], reached));
  }
  roots.sort(byStart);
  // Children before parents: each echo takes the first first-hand failure found beneath it.
  const firstHandBelow = new Map<string, S | null>();
  for (const node of order.reverse()) {
    let found: S | null = null;
    for (const child of node.children) {
      found =
        child.span.failed && child.span.firstHand
          ? child.span
          : (firstHandBelow.get(child.span.spanId) ?? null);
      if (found) break;
    }
    firstHandBelow.set(node.span.spanId, found);
    if (node.span.failed && !node.span.firstHand) node.echoes = found;
  }
  return roots;
}

/** Depth-first from `roots`, levels set, children sorted by start; returns the nodes visited. */
function walk<S extends TreeSpanInput>(roots: SpanTreeNode<S>[], reached: Set<string>): SpanTreeNode<S>[] {
  const out: SpanTreeNode<S>[] = [];
  const stack = roots.map((n) => ({ n, level: 1 })).reverse();
  while (stack.length > 0) {
    const { n, level } = stack.pop()!;
    if (reached.has(n.span.spanId)) continue;
    reached.add(n.span.spanId);
    n.level = level;
    n.children.sort(byStart);
    out.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push({ n: n.children[i]!, level: level + 1 });
  }
  return out;
}
