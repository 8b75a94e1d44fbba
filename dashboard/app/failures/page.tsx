import { ParamError } from '../../src/components/param-error';
import { DBFailureGroups } from '../../src/containers/db-failure-groups';
import { PageFrame } from '../../src/containers/page-frame';
import type { SearchParams } from '../../src/lib/dashboard-params';
import { type FailureFilters, parseFailureFilters } from '../../src/lib/failure-selection';

export const dynamic = 'force-dynamic';

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() ?? '';

export default async function FailuresPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  // "New since": the range's start is the moment (pick it in the range controls), state=new the
  // groups first seen after it; a version chip narrows to the groups seen in that release.
  const state = one(sp.state);
  const version = one(sp.version).slice(0, 100);
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
    <PageFrame title="Failures" searchParams={sp} showFailureFilters>
      {(params) => <DBFailureGroups params={params} filters={filters} state={state} version={version} />}
    </PageFrame>
  );
}
