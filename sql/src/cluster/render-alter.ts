import { isKeyword, isTrivia, join, nextWord, type Token } from '../lexer/sql-tokens.js';
import { onCluster, qualified, type RenderContext } from './render-context.js';
import { replicatedSettings } from './replicated-settings.js';
import type { TablePlacement } from './sharding-key.js';
import type { StatementHead } from './statement-head.js';
import { readColumn, splitTopLevel, trimEnd } from './table-definition.js';

/** Commands that change a table's columns: the Distributed table in front must follow them. */
const COLUMN_COMMANDS = new Set([
  'ADD COLUMN',
  'DROP COLUMN',
  'MODIFY COLUMN',
  'RENAME COLUMN',
  'COMMENT COLUMN',
]);

const commandOf = (command: readonly Token[]) =>
  command
    .filter((t) => !isTrivia(t))
    .slice(0, 2)
    .map((t) => t.text.toUpperCase())
    .join(' ');

/** Records the column an `ADD COLUMN [IF NOT EXISTS] name Type …` command adds. */
function addColumn(table: TablePlacement, command: readonly Token[]): void {
  const significant = command.flatMap((t, k) => (isTrivia(t) ? [] : [k]));
  const skip = isKeyword(command[significant[2]!], 'IF') ? 5 : 2; // ADD COLUMN [IF NOT EXISTS]
  const column = readColumn(command.slice(significant[skip]));
  if (column && !table.definition.columns.some((c) => c.name === column.name))
    table.definition.columns.push(column);
}

/** Forgets the column a `DROP COLUMN [IF EXISTS] name` command drops (a merged read must not name it). */
function dropColumn(table: TablePlacement, command: readonly Token[]): void {
  const significant = command.flatMap((t, k) => (isTrivia(t) ? [] : [k]));
  const skip = isKeyword(command[significant[2]!], 'IF') ? 4 : 2; // DROP COLUMN [IF EXISTS]
  const name = command[significant[skip]!]?.text.replace(/^`|`$/g, '');
  table.definition.columns = table.definition.columns.filter((c) => c.name !== name);
}

/**
 * `ALTER TABLE t …`: settings, TTLs, indexes and mutations belong to the replicated local table
 * (`ALTER TABLE t_local ON CLUSTER c …`); column changes go to the local table and then to the
 * Distributed table, whose structure mirrors it.
 */
export function renderAlter(ctx: RenderContext, head: StatementHead, tokens: Token[]): string[] {
  const table = ctx.tables.get(head.name);
  if (!table) {
    throw new RangeError(
      `ALTER TABLE ${head.name}: not a MergeTree table of the schema, so it has no cluster form`,
    );
  }
  if (isKeyword(tokens[nextWord(tokens, head.afterName)], 'ON')) {
    throw new RangeError(`ALTER TABLE ${head.name} already says ON CLUSTER; the renderer adds it`);
  }
  const commands = splitTopLevel(trimEnd(tokens.slice(head.afterName)));
  const prefix = (name: string) => `ALTER TABLE ${qualified(ctx, name)}${onCluster(ctx)}`;
  const local =
    prefix(table.localName) + commands.map((c) => ` ${join(replicatedSettings(c)).trim()}`).join(',');
  const columnCommands = commands.filter((c) => COLUMN_COMMANDS.has(commandOf(c)));
  for (const command of columnCommands) {
    if (commandOf(command) === 'ADD COLUMN') addColumn(table, command);
    if (commandOf(command) === 'DROP COLUMN') dropColumn(table, command);
  }
  if (columnCommands.length === 0) return [local];
  return [local, prefix(table.name) + columnCommands.map((c) => ` ${join(c).trim()}`).join(',')];
}
