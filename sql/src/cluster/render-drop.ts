import { join, type Token } from '../lexer/sql-tokens.js';
import { onCluster, qualified, type RenderContext } from './render-context.js';
import { applyEdits, headEdits } from './statement-edits.js';
import type { StatementHead } from './statement-head.js';

/** `DROP …` on every server; a schema table drops its Distributed front, then its local table. */
export function renderDrop(ctx: RenderContext, head: StatementHead, tokens: Token[]): string[] {
  const table = head.object === 'TABLE' ? ctx.tables.get(head.name) : undefined;
  if (!table) return [applyEdits(tokens, headEdits(ctx, head))];
  const rest = join(tokens.slice(head.afterName));
  const verb = join(tokens.slice(0, head.nameAt));
  return [table.name, table.localName].map(
    (name) => `${verb}${qualified(ctx, name)}${onCluster(ctx)}${rest}`,
  );
}
