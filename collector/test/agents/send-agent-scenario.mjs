// The agent scenario (instrumentation/test/fixtures/agents/scenario.cjs: 16 runs of the real `ai` 5
// and MCP SDKs with a scripted mock model, 26 failed tool calls whose next actions are known by
// construction) sent to any OTLP endpoint: its local HTTP API, its PostgreSQL table (a unique email
// already taken), then the runs in a child process under the Faultline preload or stock
// OpenTelemetry. Shared by the collector's test, the dashboard's Agents page test and its
// screenshots. Needs PostgreSQL on 127.0.0.1:5432 (user postgres, database test).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { startAgentApi } from '../../../instrumentation/test/fixtures/agents/agent-api.mjs';

const FIXTURES = fileURLToPath(new URL('../../../instrumentation/test/fixtures/agents/', import.meta.url));
const INSTRUMENTATION_ROOT = fileURLToPath(new URL('../../../instrumentation/', import.meta.url));
const PG = { host: '127.0.0.1', port: 5432, user: 'postgres', database: 'test' };
const run = promisify(execFile);

async function sql(query) {
  const client = new pg.Client(PG);
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/**
 * Runs the scenario once against `otlpUrl` (the base URL: /v1/traces is appended) and resolves when
 * the child has exported and exited, with the child's output (one line per run).
 */
export async function sendAgentScenario({ otlpUrl, service, mode = 'preload', token, tag }) {
  const id = tag ?? `${mode}-${process.pid}-${Date.now().toString(36)}`;
  const table = `fl_agents_${id.replace(/[^a-z0-9]/gi, '_')}`.toLowerCase();
  const api = await startAgentApi();
  try {
    await sql(`DROP TABLE IF EXISTS ${table}`);
    await sql(`CREATE TABLE ${table} (email text PRIMARY KEY)`);
    await sql(`INSERT INTO ${table} (email) VALUES ('taken@example.com')`);
    const args =
      mode === 'preload'
        ? ['--import', '@faultline/instrumentation/register', `${FIXTURES}agent-runs.mjs`]
        : [`${FIXTURES}agent-runs-stock.cjs`];
    return await run(process.execPath, args, {
      cwd: INSTRUMENTATION_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        OTEL_SERVICE_NAME: service,
        OTEL_EXPORTER_OTLP_ENDPOINT: otlpUrl,
        ...(token ? { OTEL_EXPORTER_OTLP_HEADERS: `authorization=Bearer ${token}` } : {}),
        OTEL_METRICS_EXPORTER: 'none',
        OTEL_LOGS_EXPORTER: 'none',
        OTEL_NODE_RESOURCE_DETECTORS: 'env',
        // One export at the end: a run's spans (its generateText span ends last) reach the
        // collector together, as a batch processor sends a short script's.
        OTEL_BSP_SCHEDULE_DELAY: '60000',
        AGENT_API_URL: api.url,
        AGENT_PG_TABLE: table,
        AGENT_RUN_TAG: id,
      },
      timeout: 60_000,
    });
  } finally {
    await sql(`DROP TABLE IF EXISTS ${table}`).catch(() => {});
    await api.close();
  }
}
