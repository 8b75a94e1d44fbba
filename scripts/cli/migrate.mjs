// `faultline migrate [--apply] [--backfill] [--print]`: the schema's version and what upgrading applies.
import { parseArgs } from 'node:util';
import { collectorHealth, runningInstance, useDataDir } from './instance.mjs';

const HELP = `Usage: faultline migrate [--apply] [--backfill] [--print] [--data-dir <dir>]

Against the ClickHouse server of FAULTLINE_CLICKHOUSE_URL (_USER, _PASSWORD, _DATABASE), or the
embedded data directory of FAULTLINE_DATA_DIR (--data-dir, default ./.faultline/data) when no URL is
set. While Faultline runs on that directory it is not opened: the running process migrated it itself
at start, and migrate reports that process's schema version (from the URL it recorded in the
directory's lock) and applies nothing.

  (no flag)    dry run: the schema's version, this release's, and every pending step with its
               statements; changes nothing
  --apply      apply the pending schema steps (quick, idempotent DDL), each recorded in
               schema_migrations, with a line per step
  --backfill   with --apply, also run the pending backfills: heavy INSERT … SELECT over the source
               tables, a step of its own so an upgrade never waits on one
  --print      print the whole schema for the configured target without connecting anywhere
               (FAULTLINE_CLICKHOUSE_CLUSTER=<name> prints the cluster's ON CLUSTER DDL)
  --data-dir   the embedded data directory (FAULTLINE_DATA_DIR)
`;

function fail(message) {
  console.error(`faultline migrate: ${message}`);
  return 2;
}

export async function run(argv) {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        apply: { type: 'boolean' },
        backfill: { type: 'boolean' },
        print: { type: 'boolean' },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    return fail(`${err.message}. Run \`faultline migrate --help\`.`);
  }
  if (args.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (args.backfill && !args.apply)
    return fail('--backfill runs with --apply: give both, or neither for a dry run.');
  const sql = await import('@faultline/sql');
  const sqlDir = sql.resolveSqlDir();
  if (args.print) {
    try {
      process.stdout.write(
        sql.resolveClusterName(process.env)
          ? sql.printClusterSchema(process.env, sqlDir)
          : sql.printSchema(sqlDir),
      );
    } catch (err) {
      return fail(err.message);
    }
    return 0;
  }
  let dataDir;
  try {
    dataDir = useDataDir(sql, args['data-dir']);
  } catch (err) {
    return fail(err.message);
  }
  if (!process.env.FAULTLINE_CLICKHOUSE_URL) {
    const running = runningInstance(sql, dataDir);
    if (running) return reportRunning(sql, sqlDir, dataDir, running, args);
  }
  let store;
  try {
    store = await sql.openStore({ applySchema: false });
  } catch (err) {
    if (err instanceof sql.DirectoryInUseError) {
      // Faultline started on it between our look at the lock and now.
      const running = runningInstance(sql, dataDir);
      if (running) return reportRunning(sql, sqlDir, dataDir, running, args);
    }
    return fail(err.message);
  }
  const target = store.mode === 'server' ? process.env.FAULTLINE_CLICKHOUSE_URL : store.dataDir;
  try {
    const plan = await sql.planMigration(store.client, sqlDir);
    console.log(
      `schema: version ${plan.current} in ${store.mode === 'server' ? 'the server' : 'the data directory'} ${target} (database ${store.database}); this release knows ${plan.known}`,
    );
    sql.assertNotNewer(plan);
    // A cluster runs the ON CLUSTER rendering of each step (FAULTLINE_CLICKHOUSE_CLUSTER).
    const cluster = sql.clusterStepsOf(sql.listSchemaSteps(sqlDir), process.env);
    const statementsOf = cluster?.statementsOf ?? ((s) => s.statements);
    if (plan.schema.length === 0) console.log('schema steps: up to date');
    if (plan.backfills.length === 0) console.log('backfills: none pending');
    if (!args.apply) {
      for (const step of plan.schema) {
        console.log(`\n-- pending ${step.file} (checksum ${step.checksum})`);
        for (const s of statementsOf(step)) console.log(`${s.trim()};`);
      }
      for (const b of plan.backfills)
        console.log(
          `\n-- pending backfill ${b.version} ${b.name}: ${b.target} from ${b.source} (--apply --backfill)`,
        );
      if (plan.schema.length + plan.backfills.length > 0)
        console.log('\nDry run: nothing changed. Run `faultline migrate --apply` to apply the schema steps.');
      return 0;
    }
    const done = await sql.applyMigration(store.client, plan, {
      ttlDays: sql.resolveStoreOptions().ttlDays,
      backfill: Boolean(args.backfill),
      statementsOf,
      ttlStatements: cluster?.ttl,
      onProgress: (line) => console.log(line),
    });
    console.log(
      `applied ${done.schema} schema step(s)${args.backfill ? ` and ${done.backfills} backfill(s)` : ''}; schema version ${plan.known}`,
    );
    if (!args.backfill && plan.backfills.length > 0)
      console.log(
        `${plan.backfills.length} backfill(s) pending (${plan.backfills.map((b) => b.name).join(', ')}): run \`faultline migrate --apply --backfill\` when convenient.`,
      );
    return 0;
  } catch (err) {
    console.error(`faultline migrate: ${err.message}`);
    if (sql.isConnectionError(err))
      console.error(
        `Cannot reach ClickHouse at ${target}: check FAULTLINE_CLICKHOUSE_URL and that the server is up.`,
      );
    return 1;
  } finally {
    await store.close();
  }
}

/**
 * The embedded data directory is held by a running Faultline, which migrated it itself at start:
 * its schema version comes from that process's /healthz, and nothing is applied (only the
 * process holding the directory may open it). Exit 0 when nothing is pending for this release.
 */
async function reportRunning(sql, sqlDir, dataDir, running, args) {
  const known = sql.knownSchemaVersion(sqlDir);
  const holder = `the running Faultline of ${dataDir} (${running.where})`;
  const otlp = running.endpoints.otlp;
  const health = otlp ? await collectorHealth(otlp, process.env.FAULTLINE_INGEST_TOKEN) : undefined;
  const schema = health && !(health instanceof Error) ? health.schema : undefined;
  if (!schema) {
    const why = !otlp
      ? 'it recorded no collector URL to ask'
      : health instanceof Error
        ? health.message
        : 'it has not opened its schema yet';
    console.error(
      `faultline migrate: the data directory is held by ${holder}, so migrate does not open it; ` +
        `its schema version could not be read (${why}). That process migrated the directory itself when it started. ` +
        'Run `faultline doctor` for its status.',
    );
    return 1;
  }
  console.log(
    `schema: version ${schema.version} in the data directory ${dataDir}, held by ${holder}, which migrated it at start; this release knows ${known}`,
  );
  if (schema.version > known) {
    console.error(
      `faultline migrate: version ${schema.version} is newer than this release (${known}); use the release that runs there.`,
    );
    return 1;
  }
  if (schema.version === known) {
    console.log('schema steps: up to date');
    if (args.apply) console.log("nothing to apply: the running process is on this release's schema");
    return 0;
  }
  // The running process is an older release: this release's steps apply when this release starts.
  const pending = sql.listSchemaSteps(sqlDir).filter((step) => step.version > schema.version);
  for (const step of pending) console.log(`-- pending ${step.file} (checksum ${step.checksum})`);
  console.log(
    `${pending.length} schema step(s) of this release are not applied: the running process is an older release (it knows ${schema.known}). ` +
      'This release applies them itself when it starts on this directory (`faultline start`, which migrates at start).',
  );
  if (args.apply) {
    console.error(
      'faultline migrate: --apply does not open a data directory another process holds; nothing was applied.',
    );
    return 1;
  }
  return 0;
}
