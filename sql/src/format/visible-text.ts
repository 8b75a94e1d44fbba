/**
 * Characters that reorder or hide text rather than show it: the bidirectional embeddings,
 * overrides and isolates (a service named "gnp.\u202Eexe" reads as "exe.png"), the implicit marks,
 * and C0/C1 controls other than tab and newline.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * Span data as it may be shown: every invisible or reordering character replaced by a visible
 * marker naming it (`⟨U+202E⟩`), so what a page shows is what was sent, in the order it was sent.
 */
export function visibleText(text: string): string {
  return text.replace(
    INVISIBLE,
    (c) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`,
  );
}
