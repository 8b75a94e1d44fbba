'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { FAILURE_CLASSES } from '../lib/failure-classes';
import type { Narrowing } from '../lib/narrowing';
import { RANGE_PRESETS } from '../lib/time-range';
import { CustomRange } from './custom-range';
import { type NarrowingChoices, NarrowingInputs } from './narrowing-inputs';
import { ShareLink } from './share-link';

export interface FilterBarProps {
  services: string[];
  sources: string[];
  /** Dependencies called in the range (the dependency filter's choices). */
  dependencies?: string[];
  /** Show the class and dependency filters (pages whose panels narrow by both). */
  showFailureFilters?: boolean;
  /** Show the SLO and period inputs (overview only). */
  showSlo?: boolean;
  /** Show the source filter (pages whose panels can filter by source). */
  showSource?: boolean;
  slo: number;
  periodDays: number;
  /** The range the page shows (unix seconds), so a custom range in the URL fills the inputs. */
  fromS: number;
  toS: number;
  /** The zone times are shown and typed in (the time zone toggle's). */
  zone: string;
  /** The code, version, endpoint and message filters, with their suggestions (pages that narrow failures). */
  narrowing?: { value: Narrowing; choices: NarrowingChoices };
}

/** Writes every choice into the URL, so a reload, a link or a live refresh keeps it. */
export function FilterBar({
  services,
  sources,
  dependencies = [],
  showFailureFilters = false,
  showSlo = false,
  showSource = true,
  slo,
  periodDays,
  fromS,
  toS,
  zone,
  narrowing,
}: FilterBarProps) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const custom = params.get('from') !== null;

  function push(changes: Record<string, string | null>) {
    const next = new URLSearchParams(params.toString());
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    router.push(`${pathname}?${next.toString()}`);
  }

  const active = custom ? null : (params.get('range') ?? '1h');
  const service = params.get('service') ?? '';
  const source = params.get('source') ?? '';
  const cls = params.get('class') ?? '';
  const dependency = params.get('dependency') ?? '';
  return (
    <form
      className="filter-bar"
      aria-label="Filters"
      data-from-s={fromS}
      data-to-s={toS}
      onSubmit={(e) => e.preventDefault()}
    >
      <fieldset className="presets">
        <legend>Range</legend>
        {Object.keys(RANGE_PRESETS).map((preset) => (
          <button
            key={preset}
            type="button"
            data-testid={`range-${preset}`}
            aria-pressed={active === preset}
            onClick={() => push({ range: preset, from: null, to: null })}
          >
            {preset}
          </button>
        ))}
      </fieldset>
      <CustomRange
        // Remounted when the range changes (a zoom, a preset), so the inputs show the new one.
        key={custom ? `${fromS}-${toS}-${zone}` : `now-${zone}`}
        custom={custom}
        fromS={fromS}
        toS={toS}
        zone={zone}
        push={push}
      />
      <label>
        Service{' '}
        <select
          data-testid="filter-service"
          value={service}
          onChange={(e) => push({ service: e.target.value })}
        >
          <option value="">all services</option>
          {[...new Set([...services, service].filter(Boolean))].map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      {showSource ? (
        <label>
          Source{' '}
          <select
            data-testid="filter-source"
            value={source}
            onChange={(e) => push({ source: e.target.value })}
          >
            <option value="">all sources</option>
            {[...new Set([...sources, source].filter(Boolean))].map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {showFailureFilters ? (
        <label>
          Class{' '}
          <select data-testid="filter-class" value={cls} onChange={(e) => push({ class: e.target.value })}>
            <option value="">all classes</option>
            {FAILURE_CLASSES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {showFailureFilters ? (
        <label>
          Dependency{' '}
          <select
            data-testid="filter-dependency"
            value={dependency}
            onChange={(e) => push({ dependency: e.target.value })}
          >
            <option value="">all dependencies</option>
            {[...new Set([...dependencies, dependency].filter(Boolean))].map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {narrowing ? <NarrowingInputs value={narrowing.value} choices={narrowing.choices} push={push} /> : null}
      {showSlo ? (
        <label>
          SLO %{' '}
          <input
            data-testid="filter-slo"
            type="number"
            min="50"
            max="99.999"
            step="0.1"
            defaultValue={slo}
            onBlur={(e) => push({ slo: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                push({ slo: e.currentTarget.value });
              }
            }}
          />
        </label>
      ) : null}
      {showSlo ? (
        <label>
          SLO period (days){' '}
          <input
            data-testid="filter-period"
            type="number"
            min="1"
            max="365"
            step="1"
            defaultValue={periodDays}
            onBlur={(e) => push({ period: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                push({ period: e.currentTarget.value });
              }
            }}
          />
        </label>
      ) : null}
      <ShareLink fromS={fromS} toS={toS} />
    </form>
  );
}
