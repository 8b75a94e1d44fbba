'use client';

import { useEffect } from 'react';

const ITEM = '[role="treeitem"]';

/**
 * Makes the server-rendered span tree collapsible and keyboard-navigable without shipping its spans
 * to the client again: one delegated listener flips a treeitem's aria-expanded and hides its child
 * group. Keys as the ARIA tree pattern has them: Up/Down move between visible items, Left
 * collapses, Right expands.
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
      const item = (e.target as Element).closest('[data-tree-toggle]')?.closest(ITEM);
      if (item) set(item, item.getAttribute('aria-expanded') !== 'true');
    };
    const onKey = (e: KeyboardEvent) => {
      const item = (e.target as Element).closest(ITEM);
      if (!item) return;
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') set(item, e.key === 'ArrowRight');
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
    tree.addEventListener('click', onClick);
    tree.addEventListener('keydown', onKey);
    return () => {
      tree.removeEventListener('click', onClick);
      tree.removeEventListener('keydown', onKey);
    };
  }, [treeId]);
  return null;
}
