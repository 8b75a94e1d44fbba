// `faultline doctor`: checks a deployment and says, per check, what it saw and what to do.
import { parseArgs } from 'node:util';

const HELP = `Usage: faultline doctor [--collector-url <url>] [--data-dir <dir>] [--json]

Checks, with a verdict each (ok, warn, fail, skip); exits 1 when one fails:
  connectivity      the store: the ClickHouse server (FAULTLINE_CLICKHOUSE_URL) or the embedded data
                    directory (held by the running all-in-one process: then that process, asked at
                    the URL it recorded in the directory's lock)
  schema version    the database's against this release's; pending steps or backfills
  ingest token      FAULTLINE_INGEST_TOKEN, and whether ingest listens beyond loopback without it
  clock skew        this machine against the ClickHouse server (over 2 s fails)
  writer backlog    the collector's /healthz: spans acknowledged and not yet inserted, and for how long
  disk              free space of the data directory and of the write-ahead log directory

  --collector-url   the collector to ask, its base or …/v1/traces URL (default: the OTLP URL the
                    running Faultline of the data directory recorded in its lock, else
                    http://127.0.0.1:<FAULTLINE_OTLP_PORT or 4318>)
  --data-dir        the embedded data directory (FAULTLINE_DATA_DIR, default ./.faultline/data)
  --json            one JSON array instead of lines
`;

function usageError(message) {
  console.error(`faultline doctor: ${message}`);
  return 2;
}

function isHttpUrl(value) {
  try {
    return /^https?:$/.test(new URL(value).protocol);
  } catch {
    return false;
  }
}

const MARK = { ok: '✓', warn: '!', fail: '✗', skip: '-' };

export async function run(argv) {
  let o;
  try {
    o = parseArgs({
      args: argv,
      options: {
        'collector-url': { type: 'string' },
        'data-dir': { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (err) {
    return usageError(`${err.message}. Run \`faultline doctor --help\`.`);
  }
  if (o.help) {
    process.stdout.write(HELP);
    return 0;
  }
  // The traces URL `faultline start` prints works too: the collector's base is before /v1/traces.
  const collectorUrl = o['collector-url']?.replace(/\/+$/, '').replace(/\/v1\/traces$/, '');
  if (collectorUrl !== undefined && !isHttpUrl(collectorUrl))
    return usageError(
      `--collector-url ${collectorUrl} is not an http(s) URL: give the collector's OTLP/HTTP base, e.g. http://127.0.0.1:4318.`,
    );
  if (o['data-dir'] !== undefined) {
    if (!o['data-dir'].trim())
      return usageError('--data-dir is empty: give a directory, e.g. --data-dir ./.faultline/data.');
    process.env.FAULTLINE_DATA_DIR = o['data-dir'];
  }
  const { runDoctor } = await import('@faultline/collector');
  const checks = await runDoctor({ collectorUrl });
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
