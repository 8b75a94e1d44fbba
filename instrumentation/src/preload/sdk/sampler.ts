import {
  createComposableParentThresholdSampler,
  createComposableProbabilitySampler,
  createCompositeSampler,
} from '@opentelemetry/sampler-composite';
import { AlwaysOnSampler, ParentBasedSampler, type Sampler } from '@opentelemetry/sdk-trace-base';
import type { Env, Warn } from './env-reading.js';
import { RecordUnsampled } from './keep-failures-sampler.js';
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

/**
 * The keep-every-failure option (keep-failures-processor.ts): the start option, else
 * FAULTLINE_KEEP_FAILURES, else on exactly when the ratio drops traces (below 1). Only under a
 * ratio sampler: the preload builds no other, so the variable is not even read. `on` at ratio 1
 * still matters under parentbased_traceidratio, whose spans follow an upstream service that may
 * not have sampled; at ratio 1 by default nothing is installed and no span pays for it.
 */
export function readKeepFailures(
  sampling: RatioSampling | undefined,
  option: boolean | undefined,
  flag: (name: string, fallback: boolean) => boolean,
): boolean {
  if (!sampling) return false;
  return option ?? flag('FAULTLINE_KEEP_FAILURES', sampling.ratio < 1);
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
 * With `keepFailures` the spans it drops are recorded unsampled instead (keep-failures-sampler.ts).
 * Undefined leaves the sampler to the SDK's own reading of OTEL_TRACES_SAMPLER.
 */
export function createSampler(
  sampling: RatioSampling | undefined,
  keepFailures = false,
  samplerName?: string,
): Sampler | undefined {
  if (!sampling) return recordingDefault(keepFailures, samplerName);
  const ratio = createComposableProbabilitySampler(sampling.ratio);
  const sampler = createCompositeSampler(
    sampling.parentBased ? createComposableParentThresholdSampler(ratio) : ratio,
  );
  return keepFailures ? new RecordUnsampled(sampler) : sampler;
}

/**
 * The SDK's default (parentbased_always_on), built here only when unsampled spans must still be
 * recorded (the in-process counts): behind an upstream service that sampled its trace out, the
 * default drops every span of the request unrecorded, and its calls and failures would go
 * uncounted. Recorded, they are counted and still never exported (the batch processor exports
 * sampled spans only). Any other sampler named is the SDK's to build, as asked.
 */
function recordingDefault(record: boolean, samplerName: string | undefined): Sampler | undefined {
  const name = samplerName?.trim();
  if (!record || (name && name !== 'parentbased_always_on')) return undefined;
  return new RecordUnsampled(new ParentBasedSampler({ root: new AlwaysOnSampler() }));
}
