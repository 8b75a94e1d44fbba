// The CLI's commands: one module each, loaded only when run (start pulls in Next.js; the others must stay quick).

export const COMMANDS = {
  start: {
    module: new URL('./start.mjs', import.meta.url).href,
    summary: 'run Faultline: --role all|collector|dashboard|alerts',
  },
  migrate: {
    module: new URL('./migrate.mjs', import.meta.url).href,
    summary: 'show the schema version and pending steps; --apply, --backfill, --print',
  },
  sql: {
    module: new URL('./sql.mjs', import.meta.url).href,
    summary: 'run a read-only statement or a saved query (--name), as a table, csv or json',
  },
  doctor: {
    module: new URL('./doctor.mjs', import.meta.url).href,
    summary: 'check connectivity, schema, ingest token, clock skew, backlog and disk; exit 1 on a failure',
  },
  rules: {
    module: new URL('./rules.mjs', import.meta.url).href,
    summary: 'write the Prometheus recording and alerting rules',
  },
};

export function usage() {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return `Usage: faultline <command> [options]   (each command takes --help)

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`)
  .join('\n')}
`;
}
