/**
 * What an agent's tool returned, filed against its tool-call span by the hooks that see it (the AI
 * SDK's tool capture, the MCP client's callTool) until `onEnding` reads it for a failure it reports
 * (`isError`, `{ ok: false }`, a problem body): the span records at most a JSON copy, and only when
 * the application lets it. Weak keys, as span-errors.ts keeps thrown errors.
 */
const results = new WeakMap<object, unknown>();

export function fileToolResult(span: object, result: unknown): void {
  if (result !== undefined) results.set(span, result);
}

/** The result filed for this span, once; undefined when no hook saw one. */
export function takeToolResult(span: object): unknown {
  const result = results.get(span);
  if (result !== undefined) results.delete(span);
  return result;
}
