import { toModelEnvelope } from '../envelope/to-model-envelope.js';
import { classifyToolError } from './classify-tool-error.js';
import { classifyToolResult } from './classify-tool-result.js';
import { type RefusedCall, refusedRepeat, toolFailure } from './guard-result.js';
import { ToolCallMemory } from './tool-call-memory.js';

export interface GuardOptions {
  /** The run's memory of failed calls; one of its own by default. Share it with guardMcpClient. */
  memory?: ToolCallMemory;
  /** Told of each refused repeat (logging, a metric). */
  onRefuse?: (call: RefusedCall) => void;
}

/** An AI SDK tool as the guard reads it: whatever else it holds is kept as it is. */
interface ExecutableTool {
  execute?: (input: never, options: never) => unknown;
}

/**
 * The harness rule, opt-in, for Vercel AI SDK tools (`generateText({ tools: guardTools(tools) })`):
 * every failure of a tool — thrown, or a result that reports one (classifyToolResult) — reaches the
 * model as `{ ok: false, error: <model envelope> }`, whose class says what to do next; and an
 * identical repeat (same tool, same arguments) of a call whose failure was terminal (validation,
 * authentication, permanent: isTerminal) is not run: the model gets the same envelope with
 * `refused` saying why. An authentication refusal lifts once a refresh-like tool has run. Wrap once
 * per agent run: the memory is the run's. Tools without `execute` and streaming tools pass through.
 */
export function guardTools<T extends Record<string, ExecutableTool>>(
  tools: T,
  options: GuardOptions = {},
): T {
  const memory = options.memory ?? new ToolCallMemory();
  const guarded: Record<string, ExecutableTool> = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool?.execute;
    guarded[name] =
      typeof execute !== 'function'
        ? tool
        : { ...tool, execute: guardExecute(name, tool, execute, memory, options) };
  }
  return guarded as T;
}

type Execute = (input: unknown, options: unknown) => unknown;

function guardExecute(
  name: string,
  tool: ExecutableTool,
  execute: NonNullable<ExecutableTool['execute']>,
  memory: ToolCallMemory,
  options: GuardOptions,
): Execute {
  const original = execute as unknown as Execute;
  return async function guardedExecute(input: unknown, callOptions: unknown): Promise<unknown> {
    memory.calling(name);
    const refused = memory.refusal(name, input);
    if (refused !== undefined) {
      options.onRefuse?.({ tool: name, args: input, envelope: toModelEnvelope(refused) });
      return refusedRepeat(name, refused);
    }
    let output: unknown;
    try {
      output = await original.call(tool, input, callOptions);
    } catch (err) {
      const envelope = classifyToolError(err);
      memory.record(name, input, envelope);
      return toolFailure(envelope);
    }
    if (isStream(output)) return output;
    const envelope = classifyToolResult(output);
    memory.record(name, input, envelope);
    return envelope === null ? output : toolFailure(envelope);
  };
}

function isStream(value: unknown): boolean {
  return value !== null && typeof value === 'object' && Symbol.asyncIterator in value;
}
