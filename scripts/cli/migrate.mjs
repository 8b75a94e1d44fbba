// `faultline migrate [--apply] [--backfill] [--print]`: the schema's version and what upgrading applies.
import { parseArgs } from 'node:util';

const HELP = `Usage: faultline migrate [--apply] [--backfill] [--print]

Against the ClickHouse server of FAULTLINE_CLICKHOUSE_URL (_USER, _PASSWORD, _DATABASE), or the
embedded data directory of FAULTLINE_DATA_DIR when no URL is set (refused while Faultline runs on it:
the all-in-one process migrates itself at start).

  (no flag)    dry run: the schema's version, this release's, and every pending step with its
               statements; changes nothing
  --apply      apply the pending schema steps (quick, idempotent DDL), each recorded in
               schema_migrations, with a line per step
  --backfill   with --apply, also run the pending backfills: heavy INSERT … SELECT over the source
               tables, a step of its own so an upgrade never waits on one
  --print      print the whole schema for the configured target without connecting anywhere
               (FAULTLINE_CLICKHOUSE_CLUSTER=<name> prints the cluster's ON CLUSTER DDL)
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
  let store;
  try {
    store = await sql.openStore({ applySchema: false });
  } catch (err) {
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
