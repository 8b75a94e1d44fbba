import { listSchemaSteps } from './schema-steps.js';

/**
 * The whole schema as the migrator would apply it to an empty database, for `faultline migrate
 * --print`: every step's statements in order, each headed by its file. Reads only sql/; connects
 * nowhere.
 */
export function printSchema(sqlDir: string): string {
  const out = [
    '-- Faultline schema: every step of sql/schema, in the order `faultline migrate --apply` applies them.',
  ];
  for (const step of listSchemaSteps(sqlDir)) {
    out.push('', `-- ${step.file} (version ${step.version}, checksum ${step.checksum})`);
    for (const s of step.statements) out.push(`${s.trim()};`);
  }
  return `${out.join('\n')}\n`;
}
