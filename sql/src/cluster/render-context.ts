import type { TablePlacement } from './sharding-key.js';

/** What every statement of one rendering shares: the target and the tables created so far. */
export interface RenderContext {
  cluster: string;
  database?: string;
  /** The schema's MergeTree tables by their single-node name, in the order they were created. */
  tables: Map<string, TablePlacement>;
}

const PLAIN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `name` as SQL: bare when plain, else back-quoted. */
export const ident = (name: string): string =>
  PLAIN.test(name) ? name : `\`${name.replaceAll('`', '``')}\``;

/** A table or view name as the rendered statements write it: database-qualified when one was given. */
export const qualified = (ctx: RenderContext, name: string): string =>
  ctx.database ? `${ident(ctx.database)}.${ident(name)}` : ident(name);

export const onCluster = (ctx: RenderContext): string => ` ON CLUSTER ${ident(ctx.cluster)}`;
