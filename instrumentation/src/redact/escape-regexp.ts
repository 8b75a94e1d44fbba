/** `text` as a RegExp source that matches it literally (`/` too, so it also fits a literal). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
