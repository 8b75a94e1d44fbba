// `faultline doctor`: checks a deployment and says, per check, what it saw and what to do.
import { parseArgs } from 'node:util';

const HELP = `Usage: faultline doctor [--collector-url <url>] [--json]

Checks, with a verdict each (ok, warn, fail, skip); exits 1 when one fails:
  connectivity      the store: the ClickHouse server (FAULTLINE_CLICKHOUSE_URL) or the embedded data
                    directory (held by the running all-in-one process: then that process)
  schema version    the database's against this release's; pending steps or backfills
  ingest token      FAULTLINE_INGEST_TOKEN, and whether ingest listens beyond loopback without it
  clock skew        this machine against the ClickHouse server (over 2 s fails)
  writer backlog    the collector's /healthz: spans acknowledged and not yet inserted, and for how long
  disk              free space of the data directory and of the write-ahead log directory

  --collector-url   the collector to ask (default http://127.0.0.1:<FAULTLINE_OTLP_PORT or 4318>)
  --json            one JSON array instead of lines
`;

const MARK = { ok: '✓', warn: '!', fail: '✗', skip: '-' };

export async function run(argv) {
  let o;
  try {
    o = parseArgs({
      args: argv,
      options: {
        'collector-url': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    console.error(`faultline doctor: ${err.message}. Run \`faultline doctor --help\`.`);
    return 2;
  }
  if (o.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const { runDoctor } = await import('@faultline/collector');
  const checks = await runDoctor({ collectorUrl: o['collector-url']?.replace(/\/$/, '') });
  if (o.json) console.log(JSON.stringify(checks, null, 2));
  else {
    const width = Math.max(...checks.map((c) => c.name.length));
    for (const c of checks)
      console.log(`${MARK[c.verdict]} ${c.verdict.padEnd(4)} ${c.name.padEnd(width)}  ${c.detail}`);
    const failed = checks.filter((c) => c.verdict === 'fail').length;
    console.log(failed ? `\n${failed} check(s) failed.` : '\nNo check failed.');
  }
  return checks.some((c) => c.verdict === 'fail') ? 1 : 0;
}
