import { DBMisroutedRetries, DBRetriesByClass } from '../../src/containers/db-retries';
import { PageFrame } from '../../src/containers/page-frame';
import type { SearchParams } from '../../src/lib/dashboard-params';

export const dynamic = 'force-dynamic';

export default async function RetriesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <PageFrame title="Retries" searchParams={await searchParams}>
      {(params) => (
        <>
          <DBRetriesByClass params={params} />
          <DBMisroutedRetries params={params} />
        </>
      )}
    </PageFrame>
  );
}
