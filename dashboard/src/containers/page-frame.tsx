import { Suspense } from 'react';
import { EmptyState } from '../components/empty-state';
import { FilterBar } from '../components/filter-bar';
import { IngestBanner } from '../components/ingest-banner';
import { LiveRefresh } from '../components/live-refresh';
import { ParamError } from '../components/param-error';
import { type DashboardParams, parseDashboardParams, type SearchParams } from '../lib/dashboard-params';
import { loadFilterOptions } from '../server/overview-data';

export function otlpEndpoint(): string {
  return process.env.FAULTLINE_OTLP_ENDPOINT ?? 'http://127.0.0.1:4318';
}

/**
 * Shared frame of the filtered pages: parses the URL (a bad value becomes a readable error), draws
 * the filters and live refresh, and shows the empty state when no call was recorded in the range.
 */
export async function PageFrame({
  title,
  searchParams,
  showSlo = false,
  showSource = true,
  showFailureFilters = false,
  children,
}: {
  title: string;
  searchParams: SearchParams;
  showSlo?: boolean;
  showSource?: boolean;
  /** The class and dependency filters, on pages whose every panel narrows by them. */
  showFailureFilters?: boolean;
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
  const options = await loadFilterOptions(params);
  return (
    <>
      <div className="page-head">
        <h1>{title}</h1>
        <LiveRefresh renderedAt={Date.now()} />
      </div>
      <IngestBanner />
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
        />
      </Suspense>
      {options.services.length === 0 ? <EmptyState otlpEndpoint={otlpEndpoint()} /> : children(params)}
    </>
  );
}
