'use client';

import { MAX_SEARCH_CHARS, type Narrowing } from '../lib/narrowing';

export interface NarrowingChoices {
  codes: string[];
  versions: string[];
  endpoints: string[];
}

const FIELDS: { key: keyof Narrowing; label: string; list?: keyof NarrowingChoices; placeholder: string }[] =
  [
    { key: 'code', label: 'Code', list: 'codes', placeholder: 'any code' },
    { key: 'version', label: 'Version', list: 'versions', placeholder: 'any version' },
    { key: 'endpoint', label: 'Endpoint', list: 'endpoints', placeholder: 'any endpoint' },
    { key: 'q', label: 'Message', placeholder: 'search messages' },
  ];

/**
 * Code, version, endpoint (exact, with the range's values suggested) and a message search
 * (a substring): applied on Enter or on leaving the field, into the URL.
 */
export function NarrowingInputs({
  value,
  choices,
  push,
}: {
  value: Narrowing;
  choices: NarrowingChoices;
  push: (changes: Record<string, string | null>) => void;
}) {
  return (
    <fieldset className="narrowing">
      <legend>Failures with</legend>
      {FIELDS.map((f) => (
        <label key={f.key}>
          {f.label}{' '}
          <input
            // Remounted when the URL's value changes (a chip removed it), so it shows the URL's.
            key={value[f.key]}
            data-testid={`filter-${f.key}`}
            type={f.key === 'q' ? 'search' : 'text'}
            list={f.list ? `choices-${f.key}` : undefined}
            maxLength={f.key === 'q' ? MAX_SEARCH_CHARS : 200}
            size={f.key === 'q' ? 18 : 12}
            placeholder={f.placeholder}
            defaultValue={value[f.key]}
            onBlur={(e) => {
              if (e.target.value.trim() !== value[f.key]) push({ [f.key]: e.target.value.trim() });
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                push({ [f.key]: e.currentTarget.value.trim() });
              }
            }}
          />
          {f.list ? (
            <datalist id={`choices-${f.key}`}>
              {choices[f.list].map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
          ) : null}
        </label>
      ))}
    </fieldset>
  );
}
