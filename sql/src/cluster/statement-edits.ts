import type { Token } from '../lexer/sql-tokens.js';
import { ident, onCluster, qualified, type RenderContext } from './render-context.js';
import type { StatementHead } from './statement-head.js';

/** A token replaced by new text (or text inserted before it); the rest is kept as written. */
export type Edit = { at: number; text: string; insert?: boolean };

/** `tokens` joined, with `edits` applied. */
export function applyEdits(tokens: readonly Token[], edits: readonly Edit[]): string {
  const byIndex = new Map<number, Edit[]>();
  for (const e of edits) byIndex.set(e.at, [...(byIndex.get(e.at) ?? []), e]);
  return tokens
    .map((t, k) => {
      const here = byIndex.get(k) ?? [];
      const inserted = here.filter((e) => e.insert).map((e) => e.text);
      const replaced = here.find((e) => !e.insert);
      return inserted.join('') + (replaced ? replaced.text : t.text);
    })
    .join('');
}

/** `ON CLUSTER` after the object's name, the name qualified, IF NOT EXISTS where a CREATE had no guard. */
export function headEdits(ctx: RenderContext, head: StatementHead): Edit[] {
  const text = head.object === 'FUNCTION' ? ident(head.name) : qualified(ctx, head.name);
  const edits: Edit[] = [{ at: head.nameAt, text: text + onCluster(ctx) }];
  if (head.verb === 'CREATE' && !head.guarded)
    edits.push({ at: head.nameAt, text: 'IF NOT EXISTS ', insert: true });
  return edits;
}
