/** SeverityNumber's enum names (logs.proto), by value: TRACE 1…4, DEBUG 5…8, INFO 9…12, WARN 13…16, ERROR 17…20, FATAL 21…24. */
const LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'];

/** The number of an OTLP/JSON severity name (`SEVERITY_NUMBER_ERROR`, `SEVERITY_NUMBER_WARN2`), or undefined. */
export function severityNumberFromName(name: string): number | undefined {
  if (name === 'SEVERITY_NUMBER_UNSPECIFIED') return 0;
  const m = /^SEVERITY_NUMBER_([A-Z]+)([234])?$/.exec(name);
  if (!m) return undefined;
  const level = LEVELS.indexOf(m[1]!);
  if (level < 0) return undefined;
  return level * 4 + 1 + (m[2] === undefined ? 0 : Number(m[2]) - 1);
}
