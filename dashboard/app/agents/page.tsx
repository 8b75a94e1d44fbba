import { ParamError } from '../../src/components/param-error';
import { DBAgentsCompliance } from '../../src/containers/db-agents-compliance';
import { DBAgentsJudgements } from '../../src/containers/db-agents-judgements';
import { DBAgentsTools } from '../../src/containers/db-agents-tools';
import { DBAgentsWorstPairs } from '../../src/containers/db-agents-worst-pairs';
import { PageFrame } from '../../src/containers/page-frame';
import { type AgentFilter, parseAgentFilter } from '../../src/lib/agent-filter';
import type { SearchParams } from '../../src/lib/dashboard-params';

export const dynamic = 'force-dynamic';

export default async function AgentsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  let filter: AgentFilter;
  try {
    filter = parseAgentFilter(sp);
  } catch (err) {
    return (
      <>
        <h1>Agents</h1>
        <ParamError message={err instanceof Error ? err.message : String(err)} />
      </>
    );
  }
  return (
    <PageFrame title="Agents" path="/agents" searchParams={sp} showSource={false}>
      {(params) => (
        <>
          <DBAgentsCompliance params={params} filter={filter} />
          <DBAgentsWorstPairs params={params} />
          <DBAgentsTools params={params} />
          <DBAgentsJudgements params={params} filter={filter} />
        </>
      )}
    </PageFrame>
  );
}
