'use client';

import { useState } from 'react';
import { isoParam } from '../lib/time-range';
import { formatZoned, parseZonedInput } from '../lib/zoned-time';

/**
 * The custom range as two 24-hour text inputs ("2026-01-31 09:30") in the reader's zone: a
 * datetime-local input renders in the browser's locale, 12-hour in many, and in its own zone.
 * Applied as absolute from/to in the URL.
 */
export function CustomRange({
  custom,
  fromS,
  toS,
  zone,
  push,
}: {
  /** The URL holds from/to (not a preset): the inputs start filled with them. */
  custom: boolean;
  fromS: number;
  toS: number;
  zone: string;
  push: (changes: Record<string, string | null>) => void;
}) {
  const [from, setFrom] = useState(custom ? formatZoned(fromS, zone, 'input') : '');
  const [to, setTo] = useState(custom ? formatZoned(toS, zone, 'input') : '');
  const [error, setError] = useState('');
  function apply() {
    const f = parseZonedInput(from, zone);
    const t = to.trim() === '' ? null : parseZonedInput(to, zone);
    if (f === null || (to.trim() !== '' && t === null)) {
      setError(`write times as YYYY-MM-DD HH:MM (24-hour, ${zone}), e.g. ${formatZoned(toS, zone, 'input')}`);
      return;
    }
    if (t !== null && t <= f) {
      setError('"from" must be before "to"');
      return;
    }
    setError('');
    push({ range: null, from: isoParam(f), to: t === null ? null : isoParam(t) });
  }
  return (
    <fieldset className="custom-range">
      <legend>Custom ({zone}, 24-hour)</legend>
      <input
        aria-label="from"
        data-testid="custom-from"
        type="text"
        inputMode="numeric"
        placeholder="YYYY-MM-DD HH:MM"
        size={16}
        value={from}
        onChange={(e) => setFrom(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            apply();
          }
        }}
      />
      <input
        aria-label="to"
        data-testid="custom-to"
        type="text"
        inputMode="numeric"
        placeholder="now"
        size={16}
        value={to}
        onChange={(e) => setTo(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            apply();
          }
        }}
      />
      <button type="button" data-testid="custom-apply" disabled={from === ''} onClick={apply}>
        Apply
      </button>
      {error ? (
        <span className="bad" role="alert" data-testid="custom-error">
          {error}
        </span>
      ) : null}
    </fieldset>
  );
}
