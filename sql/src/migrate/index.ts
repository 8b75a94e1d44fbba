export { BACKFILL_STEPS, type BackfillStep, backfillInsert } from './backfill-steps.js';
export { clusterStepsOf } from './cluster-steps.js';
export {
  type ApplyOptions,
  applyMigration,
  assertNotNewer,
  type MigrationPlan,
  planMigration,
  SchemaBehindError,
  SchemaTooNewError,
} from './migrate.js';
export { printSchema } from './print-schema.js';
export {
  type AppliedStep,
  MIGRATIONS_TABLE,
  readAppliedSteps,
  schemaVersionOf,
} from './schema-migrations.js';
export { knownSchemaVersion, listSchemaSteps, type SchemaStep } from './schema-steps.js';
