import { IngestHealth } from '../src/components/ingest-banner';
import { DBBudgetChart } from '../src/containers/db-budget-chart';
import { DBClassSourceMatrix, parseMatrixBy } from '../src/containers/db-class-source-matrix';
import { DBHeadline } from '../src/containers/db-headline';
import { DBTimelineChart } from '../src/containers/db-timeline-chart';
import { DBTopCodes } from '../src/containers/db-top-codes';
import { PageFrame } from '../src/containers/page-frame';
import type { SearchParams } from '../src/lib/dashboard-params';

export const dynamic = 'force-dynamic';

export default async function OverviewPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  return (
    <PageFrame title="Overview" searchParams={sp} showSlo showFailureFilters>
      {(params) => (
        <>
          <DBHeadline params={params} />
          <DBBudgetChart params={params} />
          <div className="grid-2">
            <DBClassSourceMatrix params={params} by={parseMatrixBy(sp.matrix)} />
            <DBTimelineChart params={params} />
          </div>
          <DBTopCodes params={params} />
          <IngestHealth />
        </>
      )}
    </PageFrame>
  );
}
