// A test stand-in for a ClickHouse server: enough of the ClickHouse HTTP interface for
// @clickhouse/client (query in the URL or the body, INSERT data in the body, param_*, settings as
// URL parameters, gzip request bodies, /ping, exception text with a non-200 status), executed by
// chDB in this separate process. No ClickHouse server binary exists on the build machines.
//
// Usage: node clickhouse-http-shim.mjs <port> <dataDir>  → prints "listening <port>" when ready.
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { createChdbConnection } from 'chdb/connection';

const [portArg, dataDir] = process.argv.slice(2);
if (!portArg || !dataDir) {
  console.error('usage: node clickhouse-http-shim.mjs <port> <dataDir>');
  process.exit(2);
}

const main = createChdbConnection({ path: dataDir });
// readonly cannot be lifted inside a chDB session, so read-only requests get their own session.
const readOnly = createChdbConnection({ path: dataDir });
await readOnly.exec({ query: 'SET readonly = 2' });

// URL parameters that are protocol, not settings.
const PROTOCOL_PARAMS = new Set(['query', 'query_id', 'database', 'session_id', 'role', 'user', 'password']);

// HTTP param_* values are already in ClickHouse's text form (`['a','b\\'c']`). chDB's own binder
// would escape them a second time, so they are handed over as `SET param_x = '<text>'`, which
// gives ClickHouse exactly the text a server receives.
function bindParams(params) {
  let prefix = '';
  for (const [name, text] of Object.entries(params)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw Object.assign(new Error(`bad query parameter name ${name}`), {
        code: 456,
        type: 'BAD_QUERY_PARAMETER',
      });
    }
    prefix += `SET param_${name} = '${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'; `;
  }
  return prefix;
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const raw = Buffer.concat(chunks);
  return req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
}

function exceptionText(err) {
  const code = /^\d+$/.test(String(err.code ?? '')) ? err.code : 1001;
  const type = err.type ?? 'STD_EXCEPTION';
  const message = String(err.message ?? err).replace(/^Code: \d+\. DB::Exception: /, '');
  return { code, text: `Code: ${code}. DB::Exception: ${message} (${type}) (version 26.7.2.1 (chdb))\n` };
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  try {
    if (
      url.pathname === '/ping' ||
      (req.method === 'GET' && url.pathname === '/' && !url.searchParams.has('query'))
    ) {
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('Ok.\n');
      return;
    }
    if (String(req.headers['content-type'] ?? '').startsWith('multipart/')) {
      throw Object.assign(new Error('multipart query parameters are not supported by the test shim'), {
        code: 48,
        type: 'NOT_IMPLEMENTED',
      });
    }
    const body = await readBody(req);
    const settings = {};
    const queryParams = {};
    for (const [k, v] of url.searchParams) {
      if (k.startsWith('param_')) queryParams[k.slice('param_'.length)] = v;
      else if (!PROTOCOL_PARAMS.has(k)) settings[k] = v;
    }
    const urlQuery = url.searchParams.get('query');
    const query = bindParams(queryParams) + (urlQuery ?? body);
    const values = urlQuery !== null && body.length > 0 ? Readable.from([body]) : undefined;
    const isReadOnly = settings.readonly !== undefined && settings.readonly !== '0';
    delete settings.readonly;
    const conn = isReadOnly ? readOnly : main;
    const result = await conn.exec({ query, values, clickhouse_settings: settings });
    const chunks = [];
    for await (const chunk of result.stream) chunks.push(chunk);
    res.writeHead(200, {
      'Content-Type': 'text/plain; charset=UTF-8',
      'X-ClickHouse-Query-Id': url.searchParams.get('query_id') ?? '',
      'X-ClickHouse-Summary': JSON.stringify(result.summary ?? {}),
    });
    res.end(Buffer.concat(chunks));
  } catch (err) {
    const { code, text } = exceptionText(err);
    res.writeHead(500, {
      'Content-Type': 'text/plain; charset=UTF-8',
      'X-ClickHouse-Exception-Code': String(code),
    });
    res.end(text);
  }
});

server.listen(Number(portArg), '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.close();
    main.close();
    readOnly.close();
    process.exit(0);
  });
}
