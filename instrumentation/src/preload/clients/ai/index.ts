import {
  type Instrumentation,
  InstrumentationBase,
  type InstrumentationConfig,
  InstrumentationNodeModuleDefinition,
} from '@opentelemetry/instrumentation';
import { safely } from '../../shared/safe.js';
import { patchAi, unpatchAi } from './ai-patch.js';

export const AI_INSTRUMENTATION_NAME = '@faultline/instrumentation-ai';
export const AI_INSTRUMENTATION_VERSION = '0.1.0';

/** The Vercel AI SDK v5 (v6 and later need Node 22: DESIGN). */
const SUPPORTED = ['>=5.0.0 <6'];

/**
 * The Vercel AI SDK makes its own spans (`ai.generateText`, `ai.toolCall`, with
 * `experimental_telemetry: { isEnabled: true }`); this adds no span. It hands the span processor
 * what a tool threw or returned, which those spans keep only in part (tool-capture.ts), so a tool's
 * failure is classified by the status, wait or SQLSTATE it carries and by a result that reports it.
 */
export class AiInstrumentation extends InstrumentationBase {
  constructor(config: InstrumentationConfig = {}) {
    super(AI_INSTRUMENTATION_NAME, AI_INSTRUMENTATION_VERSION, config);
  }

  protected init(): InstrumentationNodeModuleDefinition[] {
    return [
      new InstrumentationNodeModuleDefinition(
        'ai',
        SUPPORTED,
        (exports: Record<string, unknown>) => safely('ai patch', () => patchAi(exports)) ?? exports,
        (exports?: Record<string, unknown>) => safely('ai unpatch', () => unpatchAi(exports)),
      ),
    ];
  }
}

/** `ai`: what the Vercel AI SDK's tools threw or returned, for their tool-call spans. */
export function aiInstrumentation(): Instrumentation {
  return new AiInstrumentation();
}
