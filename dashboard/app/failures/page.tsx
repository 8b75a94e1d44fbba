import { DBFailureGroups } from '../../src/containers/db-failure-groups';
import { PageFrame } from '../../src/containers/page-frame';
import type { SearchParams } from '../../src/lib/dashboard-params';

export const dynamic = 'force-dynamic';

export default async function FailuresPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  return (
    <PageFrame title="Failures" searchParams={await searchParams}>
      {(params) => <DBFailureGroups params={params} />}
    </PageFrame>
  );
}
