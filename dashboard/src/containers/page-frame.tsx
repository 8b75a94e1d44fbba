import { Suspense } from 'react';
import { EmptyState } from '../components/empty-state';
import { FailureFilterChips } from '../components/failure-filter-chips';
import { FilterBar } from '../components/filter-bar';
import { IngestBanner } from '../components/ingest-banner';
import { LiveRefresh } from '../components/live-refresh';
import { ParamError } from '../components/param-error';
import { type DashboardParams, parseDashboardParams, type SearchParams } from '../lib/dashboard-params';
import type { FailureFilters } from '../lib/failure-selection';
import { loadNarrowingOptions } from '../server/deploy-data';
import { displayZone } from '../server/display-zone';
import { loadFilterOptions } from '../server/overview-data';
import { StaleNotes } from './stale-notes';

export function otlpEndpoint(): string {
  return process.env.FAULTLINE_OTLP_ENDPOINT ?? 'http://127.0.0.1:4318';
}

/**
 * Shared frame of the filtered pages: parses the URL (a bad value becomes a readable error), draws
 * the filters and live refresh, names the services that stopped sending, and shows the empty state
 * when no call was recorded in the range.
 */
export async function PageFrame({
  title,
  path = '/',
  searchParams,
  showSlo = false,
  showSource = true,
  showFailureFilters = false,
  failureFilters,
  keep,
  children,
}: {
  title: string;
  /** This page's path: the filter chips' links stay on it. */
  path?: string;
  searchParams: SearchParams;
  showSlo?: boolean;
  showSource?: boolean;
  /**
   * The class and dependency filters, and code, version, endpoint and message search, on pages
   * whose every failure panel narrows by them.
   */
  showFailureFilters?: boolean;
  /** The Failures page's own filters, said in words beside the others. */
  failureFilters?: FailureFilters;
  /** This page's own URL values the chips' links keep. */
  keep?: Record<string, string | null>;
  children: (params: DashboardParams) => React.ReactNode;
}) {
  let params: DashboardParams;
  try {
    params = parseDashboardParams(searchParams);
  } catch (err) {
    return (
      <>
        <h1>{title}</h1>
        <ParamError message={err instanceof Error ? err.message : String(err)} />
      </>
    );
  }
  const [options, choices, zone] = await Promise.all([
    loadFilterOptions(params),
    showFailureFilters ? loadNarrowingOptions(params) : null,
    displayZone(),
  ]);
  return (
    <>
      <div className="page-head">
        <h1>{title}</h1>
        <LiveRefresh renderedAt={Date.now()} zone={zone} />
      </div>
      <IngestBanner />
      <StaleNotes service={params.service} />
      <Suspense>
        <FilterBar
          services={options.services}
          sources={options.sources}
          dependencies={options.dependencies}
          showFailureFilters={showFailureFilters}
          showSlo={showSlo}
          showSource={showSource}
          slo={params.slo}
          periodDays={params.periodDays}
          fromS={params.range.fromS}
          toS={params.range.toS}
          zone={zone}
          narrowing={choices ? { value: params.narrow, choices } : undefined}
        />
      </Suspense>
      {showFailureFilters ? (
        <FailureFilterChips params={params} path={path} filters={failureFilters} keep={keep} />
      ) : null}
      {options.services.length === 0 ? <EmptyState otlpEndpoint={otlpEndpoint()} /> : children(params)}
    </>
  );
}
