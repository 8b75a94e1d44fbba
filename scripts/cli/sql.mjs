// `faultline sql "<query>"` / `faultline sql --name <saved query> --param k=v`: incident-review SQL
// from a terminal, through the same sandbox as the dashboard's console.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runningInstance, useDataDir } from './instance.mjs';

const FORMATS = ['table', 'csv', 'json'];
const HELP = `Usage: faultline sql "<query>" [--format table|csv|json]
       faultline sql --name <saved query> [--param key=value …] [--format …]
       faultline sql --list

Runs a read-only statement, or one of the saved queries of sql/queries (e.g. top_failure_classes,
dashboard/budget_calls), through the SQL console's sandbox: SELECT/WITH/EXPLAIN/SHOW/DESCRIBE over
Faultline's tables only, row, time and memory limits.

Where it runs:
  FAULTLINE_CLICKHOUSE_URL set   the ClickHouse server directly (console user FAULTLINE_CLICKHOUSE_CONSOLE_USER
                                 when set, else FAULTLINE_CLICKHOUSE_USER)
  --url, or FAULTLINE_URL        that Faultline dashboard's SQL console (/api/sql); FAULTLINE_URL yields
                                 to an explicit --data-dir
  otherwise                      the embedded data directory of FAULTLINE_DATA_DIR (--data-dir, default
                                 ./.faultline/data): while Faultline runs on it, that process's SQL
                                 console (\`faultline start\` records its URL in the directory's lock);
                                 when nothing runs on it, the directory itself
  Through a dashboard, Authorization: Bearer FAULTLINE_DASHBOARD_TOKEN is sent when that is set.

Options:
  --name <query>      a saved query by name (--list shows them with their parameters)
  --param key=value   a saved query's parameter (repeat); DateTime accepts '2026-12-01 10:00:00' or unix seconds
  --format <f>        table (default, cells cut at 80 characters), csv (RFC 4180) or json (one object per line)
  --url <url>         the Faultline dashboard to ask, e.g. http://127.0.0.1:3000
  --data-dir <dir>    the embedded data directory (FAULTLINE_DATA_DIR)
`;

function fail(message) {
  console.error(`faultline sql: ${message}`);
  return 2;
}

export async function run(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        param: { type: 'string', multiple: true },
        format: { type: 'string' },
        url: { type: 'string' },
        'data-dir': { type: 'string' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return fail(`${err.message}. Run \`faultline sql --help\`.`);
  }
  const { values: o, positionals } = parsed;
  if (o.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (o['data-dir'] !== undefined && !o['data-dir'].trim())
    return fail('--data-dir is empty: give a directory, e.g. --data-dir ./.faultline/data.');
  const format = o.format ?? 'table';
  if (!FORMATS.includes(format)) return fail(`--format ${format} is not a format: give table, csv or json.`);
  const faultlineSql = await import('@faultline/sql');
  if (o.list) {
    for (const q of faultlineSql.listNamedQueries())
      console.log(
        `${q.name}(${q.params.map((p) => `${p.name}: ${p.type}`).join(', ')})${q.description ? `\n    ${q.description}` : ''}`,
      );
    return 0;
  }
  if (o.name === undefined && positionals.length !== 1)
    return fail('give one statement in quotes, or --name <saved query> (faultline sql --list shows them).');
  if (o.name !== undefined && positionals.length > 0) return fail('give a statement or --name, not both.');
  const params = {};
  for (const p of o.param ?? []) {
    const i = p.indexOf('=');
    if (i <= 0) return fail(`--param ${p}: write key=value, e.g. --param service=checkout.`);
    params[p.slice(0, i)] = p.slice(i + 1);
  }
  if (o.name === undefined && Object.keys(params).length > 0)
    return fail('--param goes with --name <saved query>.');

  let result;
  try {
    result = process.env.FAULTLINE_CLICKHOUSE_URL
      ? await viaServer(faultlineSql, o.name, positionals[0], params)
      : await viaDataDir(faultlineSql, o, o.name, positionals[0], params);
  } catch (err) {
    console.error(`faultline sql: ${err.message}`);
    return 1;
  }
  const columns = result.columns.map((c) => c.name ?? c);
  if (format === 'json') for (const r of result.rows) console.log(JSON.stringify(r));
  else if (format === 'csv') console.log(faultlineSql.toCsv(columns, result.rows));
  else console.log(faultlineSql.toTextTable(columns, result.rows));
  if (format !== 'json')
    console.error(`${result.rows.length} row(s)${result.truncated ? ' (cut at the console limit)' : ''}`);
  return 0;
}

async function viaServer(faultlineSql, name, sql, params) {
  const store = await faultlineSql.openStore({ applySchema: false });
  try {
    const r = name !== undefined ? await store.runNamed(name, params) : await store.runReadOnly(sql);
    return { columns: r.meta.map((m) => m.name), rows: r.rows, truncated: Boolean(r.truncated) };
  } finally {
    await store.close();
  }
}

/**
 * Without a ClickHouse server: the dashboard named by --url / FAULTLINE_URL, else the running
 * Faultline of the data directory (from its lock), else the data directory itself.
 */
async function viaDataDir(faultlineSql, o, name, sql, params) {
  // An explicit --data-dir wins over FAULTLINE_URL from the environment; --url over both.
  const given = o.url ?? (o['data-dir'] === undefined ? process.env.FAULTLINE_URL : undefined);
  if (given !== undefined) {
    const flag = o.url !== undefined ? '--url' : 'FAULTLINE_URL';
    return viaProcess(given, flag, name, sql, params);
  }
  const dataDir = useDataDir(faultlineSql, o['data-dir']);
  for (let attempt = 0; ; attempt++) {
    const running = runningInstance(faultlineSql, dataDir);
    if (running) return viaInstance(running, dataDir, name, sql, params);
    if (!existsSync(dataDir))
      throw new Error(
        `nothing runs on the data directory ${dataDir} and it does not exist. Start Faultline on it (npx faultline start), ` +
          'name the directory Faultline runs on with FAULTLINE_DATA_DIR or --data-dir, pass --url <dashboard URL>, ' +
          'or set FAULTLINE_CLICKHOUSE_URL to query a server.',
      );
    try {
      // Nothing runs there: the directory is ours to read for the length of this query.
      return await viaServer(faultlineSql, name, sql, params);
    } catch (err) {
      // Faultline started on it meanwhile: ask it instead.
      if (!(err instanceof faultlineSql.DirectoryInUseError) || attempt > 0) throw err;
    }
  }
}

function viaInstance(running, dataDir, name, sql, params) {
  const dashboard = running.endpoints.dashboard;
  if (dashboard)
    return viaProcess(dashboard, `the running Faultline of ${dataDir} (${running.where})`, name, sql, params);
  if (running.state === 'foreign')
    throw new Error(
      `the data directory ${dataDir} is held by a Faultline on another host (${running.where}) that recorded no dashboard: ` +
        'run faultline sql on that host, or pass --url <its dashboard URL>.',
    );
  throw new Error(
    `the data directory ${dataDir} is held by a running process (${running.where}; command: ${running.holder.command}) ` +
      'that recorded no SQL console (a collector alone, or a release before consoles were recorded): ' +
      'pass --url <its dashboard URL> if it serves one, or query through a Faultline started with `npx faultline start` ' +
      '(collector and dashboard in one process).',
  );
}

async function viaProcess(baseArg, source, name, sql, params) {
  const env = process.env;
  const base = baseArg.replace(/\/+$/, '');
  let origin;
  try {
    origin = new URL(base).origin;
    if (!/^https?:$/.test(new URL(base).protocol)) throw new Error('not http(s)');
  } catch {
    throw new Error(
      `${source} ${base} is not an http(s) URL: give the dashboard's, e.g. http://127.0.0.1:3000.`,
    );
  }
  const headers = { 'content-type': 'application/json', origin };
  if (env.FAULTLINE_DASHBOARD_TOKEN) headers.authorization = `Bearer ${env.FAULTLINE_DASHBOARD_TOKEN}`;
  let res;
  try {
    res = await fetch(`${base}/api/sql`, {
      method: 'POST',
      headers,
      body: JSON.stringify(name !== undefined ? { name, params } : { sql }),
    });
  } catch (err) {
    throw new Error(
      `no Faultline answers at ${base} (${err.cause?.code ?? err.message}; from ${source}): check that it runs ` +
        '(npx faultline start), pass --url <dashboard URL>, or set FAULTLINE_CLICKHOUSE_URL to query a server.',
    );
  }
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const hint =
      res.status === 401 || res.status === 303
        ? ' Set FAULTLINE_DASHBOARD_TOKEN to the dashboard token.'
        : '';
    throw new Error(`${base} answered ${res.status}: ${body.error ?? res.statusText}.${hint}`);
  }
  return {
    columns: body.columns ?? Object.keys(body.rows?.[0] ?? {}),
    rows: body.rows ?? [],
    truncated: Boolean(body.truncated),
  };
}
