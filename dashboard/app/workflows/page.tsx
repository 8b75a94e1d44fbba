import Link from 'next/link';
import { DBFirstFailures } from '../../src/containers/db-first-failures';
import { DBRecentWorkflows } from '../../src/containers/db-recent-workflows';
import { DBWorkflowReliability } from '../../src/containers/db-workflow-reliability';
import { PageFrame } from '../../src/containers/page-frame';
import type { SearchParams } from '../../src/lib/dashboard-params';
import { hrefWith } from '../../src/lib/url-state';

export const dynamic = 'force-dynamic';

export default async function WorkflowsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const failedOnly = sp.failed === '1';
  return (
    <PageFrame title="Workflows" searchParams={sp} showSource={false}>
      {(params) => (
        <>
          <DBWorkflowReliability params={params} />
          <DBFirstFailures params={params} />
          <section className="panel" aria-labelledby="recent-title">
            <h2 id="recent-title">
              Recent workflows{' '}
              <Link href={hrefWith('/workflows', sp, { failed: failedOnly ? null : '1' })}>
                {failedOnly ? 'show all' : 'failed only'}
              </Link>
            </h2>
            <DBRecentWorkflows params={params} failedOnly={failedOnly} />
          </section>
        </>
      )}
    </PageFrame>
  );
}
