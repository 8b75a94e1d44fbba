import { ParamError } from '../../src/components/param-error';
import { DBFailureGroups } from '../../src/containers/db-failure-groups';
import { DBTimelineChart } from '../../src/containers/db-timeline-chart';
import { PageFrame } from '../../src/containers/page-frame';
import type { SearchParams } from '../../src/lib/dashboard-params';
import { type FailureFilters, parseFailureFilters } from '../../src/lib/failure-selection';

export const dynamic = 'force-dynamic';

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() ?? '';

export default async function FailuresPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  // "New since": the range's start is the moment (pick it in the range controls, or a deploy's
  // "new in this release" link), state=new the groups first seen after it.
  const state = one(sp.state);
  let filters: FailureFilters;
  try {
    filters = parseFailureFilters(sp);
  } catch (err) {
    return (
      <>
        <h1>Failures</h1>
        <ParamError message={err instanceof Error ? err.message : String(err)} />
      </>
    );
  }
  return (
    <PageFrame
      title="Failures"
      path="/failures"
      searchParams={sp}
      showFailureFilters
      failureFilters={filters}
      keep={{ state: state || null }}
    >
      {(params) => (
        <>
          <DBTimelineChart params={params} filters={filters} />
          <DBFailureGroups params={params} filters={filters} state={state} />
        </>
      )}
    </PageFrame>
  );
}
