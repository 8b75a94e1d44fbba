import type { Page } from 'playwright-core';

/**
 * Measured in the page: the words under `selector` whose letters sit on more than one line (a word
 * broken mid-word), and by how many pixels the document is wider than the window.
 */
export function layoutFaults(
  page: Page,
  selector: string,
  exclude = 'pre',
): Promise<{ broken: string[]; overflowPx: number }> {
  return page.evaluate(
    ([sel, skip]) => {
      const broken: string[] = [];
      for (const root of document.querySelectorAll(sel)) {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (n.parentElement?.closest(skip)) continue;
          const text = n.textContent ?? '';
          for (const m of text.matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(n, m.index);
            range.setEnd(n, m.index + m[0].length);
            const tops = new Set(
              [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)),
            );
            if (tops.size > 1) broken.push(m[0]);
          }
        }
      }
      return { broken, overflowPx: document.documentElement.scrollWidth - window.innerWidth };
    },
    [selector, exclude] as const,
  );
}
