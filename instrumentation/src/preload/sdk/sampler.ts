import {
  createComposableParentThresholdSampler,
  createComposableProbabilitySampler,
  createCompositeSampler,
} from '@opentelemetry/sampler-composite';
import type { Sampler } from '@opentelemetry/sdk-trace-base';
import type { Env, Warn } from './config.js';
import type { RatioSampling } from './types.js';

const SAMPLERS = new Set([
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
]);
const DEFAULT_RATIO = 1;

/**
 * The sampler OTEL_TRACES_SAMPLER asks for, as far as the preload builds it: the two ratio
 * samplers, or undefined for the others, which the SDK keeps reading itself (always_on,
 * always_off and their parent-based forms write no tracestate). An unknown name or a bad
 * OTEL_TRACES_SAMPLER_ARG is one warning and the default (parentbased_always_on, ratio 1).
 */
export function readSampling(env: Env, warn: Warn): RatioSampling | undefined {
  const name = env.OTEL_TRACES_SAMPLER?.trim();
  if (name && !SAMPLERS.has(name)) {
    warn('OTEL_TRACES_SAMPLER', name, `use one of ${[...SAMPLERS].join(', ')} (using parentbased_always_on)`);
    return undefined;
  }
  if (name !== 'traceidratio' && name !== 'parentbased_traceidratio') return undefined;
  return { parentBased: name === 'parentbased_traceidratio', ratio: readRatio(env, warn) };
}

function readRatio(env: Env, warn: Warn): number {
  const raw = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (!raw) return DEFAULT_RATIO;
  const ratio = Number(raw);
  if (ratio >= 0 && ratio <= 1) return ratio;
  warn('OTEL_TRACES_SAMPLER_ARG', raw, `use a probability from 0 to 1 such as 0.25 (using ${DEFAULT_RATIO})`);
  return DEFAULT_RATIO;
}

/**
 * A ratio sampler per the specification's consistent probability sampling ("TraceState:
 * Probability Sampling"): a trace is kept when the 56 random bits of its trace id (or an `rv` in
 * `ot`) reach the threshold 2^56 × (1 − ratio), and every kept span carries that threshold in its
 * tracestate as `ot=th:<hex>` (0.25 → `th:c`, 1 → `th:0`), so a stored span counts for
 * 2^56 / (2^56 − threshold) spans and the mark travels downstream in the `tracestate` header.
 * The parent-based form keeps a child exactly when its parent was kept, with the parent's threshold.
 * Undefined leaves the sampler to the SDK's own reading of OTEL_TRACES_SAMPLER.
 */
export function createSampler(sampling: RatioSampling | undefined): Sampler | undefined {
  if (!sampling) return undefined;
  const ratio = createComposableProbabilitySampler(sampling.ratio);
  return createCompositeSampler(sampling.parentBased ? createComposableParentThresholdSampler(ratio) : ratio);
}
