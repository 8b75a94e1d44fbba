'use client';

import { useState } from 'react';
import { isoParam } from '../lib/time-range';

/**
 * "Link to this view": this page's URL with its range as absolute from/to (a `range=1h` link
 * moves with the clock, so whoever opens it later would see another window), every filter kept.
 */
export function ShareLink({ fromS, toS }: { fromS: number; toS: number }) {
  const [link, setLink] = useState('');
  const [copied, setCopied] = useState(false);
  function make() {
    const next = new URLSearchParams(window.location.search);
    next.delete('range');
    next.set('from', isoParam(fromS));
    next.set('to', isoParam(toS));
    const url = `${window.location.origin}${window.location.pathname}?${next.toString()}`;
    setLink(url);
    setCopied(false);
    // The clipboard needs a secure context (localhost, https); elsewhere the field below holds it.
    navigator.clipboard?.writeText(url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  }
  return (
    <span className="share-link">
      <button type="button" data-testid="share-link" onClick={make}>
        Link to this view
      </button>
      {link ? (
        <>
          <input
            aria-label="link to this view"
            data-testid="share-link-url"
            readOnly
            value={link}
            size={Math.min(60, link.length)}
            onFocus={(e) => e.currentTarget.select()}
          />
          {copied ? <span className="muted">copied</span> : null}
        </>
      ) : null}
    </span>
  );
}
