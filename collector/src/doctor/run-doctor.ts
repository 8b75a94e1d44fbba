import { join } from 'node:path';
import type { Store } from '@faultline/sql';
import {
  DirectoryInUseError,
  describeEndpoints,
  type LockState,
  openStore,
  planMigration,
  readDirectoryLock,
  resolveSqlDir,
  resolveStoreOptions,
} from '@faultline/sql';
import { resolveReceiverConfig } from '../config/receiver-config.js';
import { diskCheck } from './disk-check.js';
import { type DoctorCheck, MAX_BACKLOG_AGE_S, MAX_CLOCK_SKEW_S } from './doctor-check.js';

export interface DoctorOptions {
  env?: NodeJS.ProcessEnv;
  /**
   * The collector to ask for its writer backlog. Default: the OTLP URL the running Faultline of the
   * embedded data directory recorded in its lock, else http://127.0.0.1:<FAULTLINE_OTLP_PORT>.
   */
  collectorUrl?: string;
  now?: () => number;
}

type Health = {
  status?: string;
  problems?: string[];
  writer?: { pendingInsert?: number; spoolDepth?: number };
  ingest?: { oldestPendingAt?: number | null; walDir?: string };
  schema?: { version: number; known: number } | null;
};

async function collectorHealth(url: string, token: string | undefined): Promise<Health | Error> {
  try {
    const res = await fetch(`${url}/healthz`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(5000),
    });
    return (await res.json()) as Health;
  } catch (err) {
    return err as Error;
  }
}

const message = (err: unknown) => (err as Error)?.message ?? String(err);

/**
 * Connectivity and schema of an embedded data directory a running process holds: that process is
 * asked (its /healthz), never the directory, and never is stopping it the advice.
 */
function heldChecks(
  dataDir: string,
  lock: LockState,
  collectorUrl: string,
  health: Health | Error,
  recordedUrl: string | undefined,
  recordedHealth: Health | Error,
): DoctorCheck[] {
  const h = lock.holder;
  const where = `pid ${h.pid}${lock.state === 'foreign' ? ` on host ${h.host}` : ''}, since ${h.since || 'an unknown time'}`;
  const urls = describeEndpoints(h.endpoints);
  const answering = !(health instanceof Error)
    ? health
    : !(recordedHealth instanceof Error)
      ? recordedHealth
      : null;
  const askedAt = !(health instanceof Error) ? collectorUrl : recordedUrl;
  if (!answering) {
    return [
      {
        name: 'connectivity',
        verdict: 'warn',
        detail:
          `the embedded data directory ${dataDir} is held by a running process (${where}${urls ? `; ${urls}` : `; command: ${h.command}`}), ` +
          `and no collector answers at ${collectorUrl}/healthz${recordedUrl && recordedUrl !== collectorUrl ? ` nor at ${recordedUrl}/healthz` : ''}: ` +
          (recordedUrl
            ? 'it may still be starting; run doctor again in a moment'
            : 'pass --collector-url <its OTLP URL> to ask it'),
      },
      {
        name: 'schema version',
        verdict: 'skip',
        detail:
          'the process holding the data directory did not answer; only it can read the schema while it runs',
      },
    ];
  }
  const s = answering.schema;
  return [
    {
      name: 'connectivity',
      verdict: 'ok',
      detail: `the embedded data directory ${dataDir} is held by the running Faultline at ${askedAt} (${where})`,
    },
    s
      ? {
          name: 'schema version',
          verdict: s.version > s.known ? 'fail' : 'ok',
          detail: `version ${s.version} (the running process migrated itself at start; it knows ${s.known})`,
        }
      : {
          name: 'schema version',
          verdict: 'warn',
          detail: 'the running process has not opened its schema yet',
        },
  ];
}

/**
 * Checks a deployment the way an operator would at 3 a.m.: can Faultline reach its store, is the
 * schema this release's, is ingest protected, do the clocks agree, is the writer keeping up, is
 * there disk. Each check has a verdict; one `fail` makes the CLI exit non-zero.
 */
export async function runDoctor(o: DoctorOptions = {}): Promise<DoctorCheck[]> {
  const env = o.env ?? process.env;
  const now = o.now ?? Date.now;
  const checks: DoctorCheck[] = [];
  const storeOptions = resolveStoreOptions({}, env);
  let receiver: ReturnType<typeof resolveReceiverConfig> | null = null;
  try {
    receiver = resolveReceiverConfig({}, env);
  } catch (err) {
    checks.push({ name: 'configuration', verdict: 'fail', detail: message(err) });
  }
  // Embedded: a Faultline running on the data directory recorded where it answers in its lock.
  const lock = storeOptions.mode === 'embedded' ? readDirectoryLock(storeOptions.dataDir) : undefined;
  const running = lock && lock.state !== 'dead' ? lock : undefined;
  // Recorded URLs are loopback ones of the holder's host: only worth dialling from that host.
  const recordedUrl = running?.state === 'alive' ? running.holder.endpoints?.otlp : undefined;
  const collectorUrl = o.collectorUrl ?? recordedUrl ?? `http://127.0.0.1:${receiver?.port ?? 4318}`;
  const health = await collectorHealth(collectorUrl, receiver?.token);
  // A --collector-url that does not answer while the running process recorded another: its health
  // still tells connectivity and the schema, and the backlog check names the URL to pass.
  const recordedHealth =
    health instanceof Error && recordedUrl && recordedUrl !== collectorUrl
      ? await collectorHealth(recordedUrl, receiver?.token)
      : health;

  // Connectivity and schema: the store itself, or (embedded, held by the running process) that process.
  let store: Store | null = null;
  if (running) {
    checks.push(
      ...heldChecks(storeOptions.dataDir, running, collectorUrl, health, recordedUrl, recordedHealth),
    );
  } else {
    try {
      store = await openStore({ applySchema: false });
    } catch (err) {
      if (err instanceof DirectoryInUseError) {
        // Taken between our look at the lock and now: a Faultline just started on it.
        const now = readDirectoryLock(storeOptions.dataDir);
        if (now && now.state !== 'dead')
          checks.push(...heldChecks(storeOptions.dataDir, now, collectorUrl, health, undefined, health));
        else checks.push({ name: 'connectivity', verdict: 'fail', detail: message(err) });
      } else {
        checks.push({
          name: 'connectivity',
          verdict: 'fail',
          detail: `${message(err)}${storeOptions.mode === 'server' ? ' (check FAULTLINE_CLICKHOUSE_URL and credentials)' : ''}`,
        });
      }
    }
  }
  if (store) {
    try {
      const t0 = now();
      const rs = await store.client.query({
        query: 'SELECT version() AS version, toUnixTimestamp64Milli(now64(3)) AS server_ms',
        format: 'JSONEachRow',
      });
      const [r] = (await rs.json()) as { version: string; server_ms: string | number }[];
      const t1 = now();
      checks.push({
        name: 'connectivity',
        verdict: 'ok',
        detail: `ClickHouse ${r?.version} (${store.mode === 'server' ? storeOptions.url : `embedded, ${storeOptions.dataDir}`}), ${t1 - t0} ms`,
      });
      const skewS = (Number(r?.server_ms) - (t0 + t1) / 2) / 1000;
      checks.push(
        store.mode === 'embedded'
          ? { name: 'clock skew', verdict: 'skip', detail: 'embedded: the engine runs on this clock' }
          : {
              name: 'clock skew',
              verdict: Math.abs(skewS) > MAX_CLOCK_SKEW_S ? 'fail' : 'ok',
              detail: `${skewS >= 0 ? '+' : ''}${skewS.toFixed(3)} s against the server${Math.abs(skewS) > MAX_CLOCK_SKEW_S ? `: over ${MAX_CLOCK_SKEW_S} s, minutes and alert windows drift; run NTP (chrony, systemd-timesyncd) on both` : ''}`,
            },
      );
      const plan = await planMigration(store.client, resolveSqlDir());
      const pending = plan.schema.length;
      // Embedded, the all-in-one migrates itself when it starts: pending steps are not a fault there.
      const server = store.mode === 'server';
      checks.push({
        name: 'schema version',
        verdict:
          plan.current > plan.known || (pending > 0 && server)
            ? 'fail'
            : pending > 0 || plan.backfills.length > 0
              ? 'warn'
              : 'ok',
        detail:
          plan.current > plan.known
            ? `version ${plan.current} is newer than this release (${plan.known}): run the release that migrated it`
            : pending > 0
              ? `version ${plan.current}, ${pending} step(s) pending for ${plan.known}: ${server ? 'run `faultline migrate --apply`' : '`faultline start` applies them'}`
              : `version ${plan.current}${plan.backfills.length ? `; ${plan.backfills.length} backfill(s) pending: \`faultline migrate --apply --backfill\`` : ''}`,
      });
    } catch (err) {
      checks.push({ name: 'connectivity', verdict: 'fail', detail: message(err) });
    } finally {
      await store.close();
    }
  }

  if (receiver) {
    const loopback = ['127.0.0.1', '::1', 'localhost'].includes(receiver.host);
    checks.push(
      receiver.token
        ? {
            name: 'ingest token',
            verdict: 'ok',
            detail: 'FAULTLINE_INGEST_TOKEN is set: /v1/traces and gRPC need it',
          }
        : loopback
          ? {
              name: 'ingest token',
              verdict: 'warn',
              detail: `none, and ingest listens on ${receiver.host} only; set FAULTLINE_INGEST_TOKEN before listening beyond loopback`,
            }
          : {
              name: 'ingest token',
              verdict: 'fail',
              detail: `none, and ingest listens on ${receiver.host}: anyone who reaches it can write spans; set FAULTLINE_INGEST_TOKEN`,
            },
    );
  }

  if (health instanceof Error) {
    const recordedAnswers = recordedUrl && recordedUrl !== collectorUrl && !(recordedHealth instanceof Error);
    checks.push({
      name: 'writer backlog',
      verdict: 'fail',
      detail: recordedAnswers
        ? `no collector answers at ${collectorUrl}/healthz (${message(health)}); the running Faultline of ${storeOptions.dataDir} answers at ${recordedUrl}: pass --collector-url ${recordedUrl}, or leave --collector-url out (doctor reads it from the data directory's lock)`
        : `no collector answers at ${collectorUrl}/healthz (${message(health)}): start it, or pass --collector-url`,
    });
  } else {
    const pending = health.writer?.pendingInsert ?? 0;
    const oldest = health.ingest?.oldestPendingAt ?? null;
    const ageS = oldest === null ? 0 : (now() - oldest) / 1000;
    checks.push({
      name: 'writer backlog',
      verdict:
        ageS > MAX_BACKLOG_AGE_S || (health.writer?.spoolDepth ?? 0) > 0
          ? 'fail'
          : health.status === 'ok'
            ? 'ok'
            : 'warn',
      detail: `${pending} span(s) acknowledged and not yet inserted${oldest !== null ? `, the oldest for ${ageS.toFixed(0)} s` : ''}; ${health.status}${health.problems?.length ? `: ${health.problems.join('; ')}` : ''}`,
    });
  }

  const walDir =
    env.FAULTLINE_SPOOL_DIR ||
    (health instanceof Error ? undefined : health.ingest?.walDir) ||
    join(storeOptions.dataDir, 'wal');
  if (storeOptions.mode === 'embedded') checks.push(diskCheck('disk (data)', storeOptions.dataDir));
  checks.push(diskCheck('disk (write-ahead log)', walDir.replace('{hostname}', '')));
  return checks;
}
