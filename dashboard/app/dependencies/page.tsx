import { DBDependencies } from '../../src/containers/db-dependencies';
import { PageFrame } from '../../src/containers/page-frame';
import type { SearchParams } from '../../src/lib/dashboard-params';

export const dynamic = 'force-dynamic';

export default async function DependenciesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <PageFrame title="Dependencies" path="/dependencies" searchParams={await searchParams} showFailureFilters>
      {(params) => <DBDependencies params={params} />}
    </PageFrame>
  );
}
