import { depths, isKeyword, type Token } from '../lexer/sql-tokens.js';

/**
 * A MergeTree remembers the insert tokens of its last N blocks only when
 * `non_replicated_deduplication_window` says so; a Replicated table keeps them in Keeper under
 * `replicated_deduplication_window`. The cluster form keeps the same window under the replicated name.
 */
const RENAMED: Record<string, string> = {
  non_replicated_deduplication_window: 'replicated_deduplication_window',
  non_replicated_deduplication_window_seconds: 'replicated_deduplication_window_seconds',
};

/** `tokens` with every setting name after a top-level SETTING / SETTINGS keyword renamed for a replicated table. */
export function replicatedSettings(tokens: readonly Token[]): Token[] {
  const depth = depths(tokens);
  let inSettings = false;
  return tokens.map((t, k) => {
    if (depth[k] === 0 && (isKeyword(t, 'SETTINGS') || isKeyword(t, 'SETTING'))) inSettings = true;
    const renamed = inSettings && t.type === 'BareWord' ? RENAMED[t.text] : undefined;
    return renamed ? { type: t.type, text: renamed } : t;
  });
}
