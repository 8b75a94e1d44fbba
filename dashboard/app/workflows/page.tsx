import Link from 'next/link';
import { ParamError } from '../../src/components/param-error';
import { DBFirstFailures } from '../../src/containers/db-first-failures';
import { DBRecentWorkflows } from '../../src/containers/db-recent-workflows';
import { DBWorkflowReliability } from '../../src/containers/db-workflow-reliability';
import { PageFrame } from '../../src/containers/page-frame';
import type { SearchParams } from '../../src/lib/dashboard-params';
import { hrefWith } from '../../src/lib/url-state';
import {
  parseWorkflowFilters,
  WORKFLOW_LIST_ID,
  type WorkflowFilters,
} from '../../src/lib/workflow-selection';

export const dynamic = 'force-dynamic';

export default async function WorkflowsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  let filters: WorkflowFilters;
  try {
    filters = parseWorkflowFilters(sp);
  } catch (err) {
    return (
      <>
        <h1>Workflows</h1>
        <ParamError message={err instanceof Error ? err.message : String(err)} />
      </>
    );
  }
  const filtered = filters.outcome !== '' || filters.steps !== null || filters.first !== null;
  return (
    <PageFrame title="Workflows" searchParams={sp} showSource={false}>
      {(params) => (
        <>
          <DBWorkflowReliability params={params} />
          <DBFirstFailures params={params} />
          <section className="panel" aria-labelledby={WORKFLOW_LIST_ID}>
            <h2 id={WORKFLOW_LIST_ID}>
              Recent workflows{' '}
              <Link href={hrefWith('/workflows', sp, { failed: filtered ? null : '1' })}>
                {filtered ? 'show all' : 'failed only'}
              </Link>
            </h2>
            <DBRecentWorkflows params={params} filters={filters} />
          </section>
        </>
      )}
    </PageFrame>
  );
}
