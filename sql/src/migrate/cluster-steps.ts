import { resolveClusterName } from '../cluster/cluster-name.js';
import { renderClusterTtl } from '../cluster/cluster-ttl.js';
import { renderClusterSchema } from '../cluster/render-cluster-schema.js';
import { assertIdentifier } from '../ddl/identifier.js';
import type { SchemaStep } from './schema-steps.js';

/**
 * Each schema step's statements in the cluster form of FAULTLINE_CLICKHOUSE_CLUSTER (null without
 * one). The renderer needs what earlier steps created (which names are replicated tables), so it
 * renders the schema once and each step keeps the statements its own files rendered into.
 */
export function clusterStepsOf(
  steps: readonly SchemaStep[],
  env: NodeJS.ProcessEnv = process.env,
): { statementsOf: (step: SchemaStep) => string[]; ttl: (ttlDays: number) => string[] } | null {
  const cluster = resolveClusterName(env);
  if (!cluster) return null;
  const database = assertIdentifier(
    env.FAULTLINE_CLICKHOUSE_DATABASE?.trim() || 'default',
    'FAULTLINE_CLICKHOUSE_DATABASE',
  );
  const target = { cluster, database };
  const byStep = new Map<string, string[]>();
  let before = 0;
  for (let i = 0; i < steps.length; i++) {
    const rendered = renderClusterSchema(
      steps.slice(0, i + 1).flatMap((s) => s.statements),
      target,
    );
    byStep.set(steps[i]!.file, rendered.slice(before));
    before = rendered.length;
  }
  return {
    statementsOf: (step) => byStep.get(step.file) ?? [],
    ttl: (ttlDays) => renderClusterTtl(ttlDays, target),
  };
}
