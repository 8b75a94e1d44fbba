import { SYSTEM_TABLES, TABLE_FUNCTIONS } from './console-allowlist.js';
import type { ConsoleCatalogue } from './console-catalogue.js';

/**
 * The SQL console refused a statement before running it. The message gives the reason, then what
 * the console does allow.
 */
export class ConsoleRefusal extends Error {
  override name = 'ConsoleRefusal';

  constructor(
    /** Why this statement was refused, one sentence. */
    readonly reason: string,
    catalogue: ConsoleCatalogue,
  ) {
    super(`${reason} ${describeConsole(catalogue)}`);
  }
}

/** What the console allows, in one paragraph built from the allowlists and Faultline's schema. */
export function describeConsole(catalogue: ConsoleCatalogue): string {
  const of = (kind: string) =>
    [...catalogue.objects]
      .filter(([, o]) => o.kind === kind)
      .map(([name, o]) => (o.params.length ? `${name}(${o.params.map((p) => `${p} = …`).join(', ')})` : name))
      .sort();
  return [
    'The SQL console is read-only (ClickHouse readonly = 1) and runs one statement per request:',
    'SELECT (WITH … SELECT), EXPLAIN, SHOW TABLES, SHOW CREATE TABLE|VIEW or DESCRIBE,',
    `over Faultline's tables in database ${catalogue.database} (${of('table').join(', ')}),`,
    `its views (${[...of('view'), ...of('parameterized view')].join(', ')}),`,
    `the system tables ${[...SYSTEM_TABLES].map((t) => `system.${t}`).join(', ')}`,
    `and the table functions ${[...TABLE_FUNCTIONS].map((f) => `${f}()`).join(', ')};`,
    'without SETTINGS, FORMAT or INTO OUTFILE clauses (the console fixes the output and its limits).',
  ].join(' ');
}
