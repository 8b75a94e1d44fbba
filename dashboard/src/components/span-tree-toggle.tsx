'use client';

import { useEffect } from 'react';

const ITEM = '[role="treeitem"]';
/** The row's own link that selects its span (not a descendant's). */
const SELECT = ':scope > .timeline-row [data-span-select]';
/** Controls of their own inside a row: a click on one is not a selection. */
const OWN_CONTROL = 'a, button, summary, details, input, textarea, select';

function select(item: Element): void {
  (item.querySelector(SELECT) as HTMLElement | null)?.click();
}

/** The row's call name, whole (the row may show it cut), to the clipboard; the button says so. */
function copyCall(item: Element): void {
  const button = item.querySelector(':scope > .timeline-row [data-copy-call]') as HTMLElement | null;
  const text = button?.dataset.copyCall;
  if (!button || text === undefined) return;
  const done = () => {
    button.dataset.copied = 'true';
    setTimeout(() => delete button.dataset.copied, 1500);
  };
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, () => {});
}

/**
 * Makes the server-rendered span tree collapsible and keyboard-navigable without shipping its spans
 * to the client again: one delegated listener flips a treeitem's aria-expanded and hides its child
 * group. Keys as the ARIA tree pattern has them: Up/Down move between visible items, Left
 * collapses, Right expands, Enter or Space selects; c copies the row's call name whole, as its copy
 * button does. Selecting is the span name's link (`&span=`, so a selection survives a reload and
 * can be shared): a click anywhere else on the row, or the keys, follow that link.
 */
export function SpanTreeToggle({ treeId }: { treeId: string }) {
  useEffect(() => {
    const tree = document.getElementById(treeId);
    if (!tree) return;
    const set = (item: Element, expanded: boolean) => {
      const group = item.querySelector(':scope > [role="group"]') as HTMLElement | null;
      const button = item.querySelector('[data-tree-toggle]');
      if (!group || !button) return;
      item.setAttribute('aria-expanded', String(expanded));
      group.hidden = !expanded;
      button.textContent = expanded ? '▾' : '▸';
    };
    const onClick = (e: Event) => {
      const target = e.target as Element;
      const toggled = target.closest('[data-tree-toggle]')?.closest(ITEM);
      if (toggled) return set(toggled, toggled.getAttribute('aria-expanded') !== 'true');
      const copy = target.closest('[data-copy-call]')?.closest(ITEM);
      if (copy) return copyCall(copy);
      // A click in a row's label or bar (not its envelope, which opens on its own) selects it.
      if (target.closest(OWN_CONTROL) || !target.closest('.timeline-row')) return;
      const item = target.closest(ITEM);
      if (item) select(item);
    };
    const onKey = (e: KeyboardEvent) => {
      const item = (e.target as Element).closest(ITEM);
      if (!item) return;
      if ((e.key === 'Enter' || e.key === ' ') && e.target === item) select(item);
      else if (e.key === 'c' && e.target === item && !e.ctrlKey && !e.metaKey && !e.altKey) copyCall(item);
      else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') set(item, e.key === 'ArrowRight');
      else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
        const visible = [...tree.querySelectorAll<HTMLElement>(ITEM)].filter(
          (el) => el.offsetParent !== null,
        );
        const next = visible[visible.indexOf(item as HTMLElement) + (e.key === 'ArrowDown' ? 1 : -1)];
        if (!next) return;
        (item as HTMLElement).tabIndex = -1;
        next.tabIndex = 0;
        next.focus();
      } else return;
      e.preventDefault();
    };
    // A deep link (&span=) opens with its span in view.
    tree.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
    tree.addEventListener('click', onClick);
    tree.addEventListener('keydown', onKey);
    return () => {
      tree.removeEventListener('click', onClick);
      tree.removeEventListener('keydown', onKey);
    };
  }, [treeId]);
  return null;
}
