import { diag } from '@opentelemetry/api';
import { captureTools } from './tool-capture.js';

type Call = (this: unknown, options?: { tools?: unknown }) => unknown;
interface AgentLike {
  settings?: { tools?: unknown };
}
interface AgentPrototype {
  generate?: Call;
  stream?: Call;
}

const ORIGINAL = Symbol.for('faultline.ai.original');
const CALLS = ['generateText', 'streamText'] as const;
const AGENT_METHODS = ['generate', 'stream'] as const;

/** generateText / streamText with their options' tools captured (tool-capture.ts). */
function wrapCall(original: Call): Call {
  const wrapped: Call = function (this: unknown, options) {
    const tools = options?.tools;
    return original.call(this, tools === undefined ? options : { ...options, tools: captureTools(tools) });
  };
  Object.defineProperty(wrapped, ORIGINAL, { value: original });
  return wrapped;
}

/** Agent#generate / #stream call the module's own generateText, not the export: its tools go in the options. */
function wrapAgentMethod(original: Call): Call {
  const wrapped: Call = function (this: unknown, options) {
    const tools = (this as AgentLike | null)?.settings?.tools;
    return original.call(this, tools === undefined ? options : { ...options, tools: captureTools(tools) });
  };
  Object.defineProperty(wrapped, ORIGINAL, { value: original });
  return wrapped;
}

/**
 * Patches the `ai` module's exports. Under ESM, import-in-the-middle's namespace takes the new
 * functions by assignment. The CommonJS build exports through getters that cannot be replaced, so
 * there the module's exports become an object that reads through to them but for the two calls
 * (require-in-the-middle hands that object to every later require). The Agent class is patched on
 * its prototype, which both builds share.
 */
export function patchAi(exports: Record<string, unknown>): Record<string, unknown> {
  patchAgent(exports.Experimental_Agent ?? exports.Agent);
  const replaced: Record<string, Call> = {};
  for (const name of CALLS) {
    const fn = exports[name];
    if (typeof fn === 'function' && !(ORIGINAL in fn)) replaced[name] = wrapCall(fn as Call);
  }
  const missed = Object.keys(replaced).filter((name) => !assign(exports, name, replaced[name]));
  if (missed.length === 0) return exports;
  const overlay: Record<string, unknown> = {};
  for (const key of Object.keys(exports)) {
    Object.defineProperty(overlay, key, {
      enumerable: true,
      configurable: true,
      get: () => replaced[key] ?? exports[key],
    });
  }
  if ('__esModule' in exports) Object.defineProperty(overlay, '__esModule', { value: true });
  return overlay;
}

export function unpatchAi(exports: Record<string, unknown> | undefined): void {
  if (exports === undefined) return;
  for (const name of CALLS) {
    const fn = exports[name] as { [ORIGINAL]?: Call } | undefined;
    if (fn?.[ORIGINAL] !== undefined) assign(exports, name, fn[ORIGINAL]);
  }
  const proto = ((exports.Experimental_Agent ?? exports.Agent) as { prototype?: AgentPrototype } | undefined)
    ?.prototype;
  for (const method of AGENT_METHODS) {
    const fn = proto?.[method] as { [ORIGINAL]?: Call } | undefined;
    if (proto && fn?.[ORIGINAL] !== undefined) proto[method] = fn[ORIGINAL];
  }
}

function patchAgent(agent: unknown): void {
  const proto = (agent as { prototype?: AgentPrototype } | undefined)?.prototype;
  if (!proto) return;
  for (const method of AGENT_METHODS) {
    const fn = proto[method];
    if (typeof fn === 'function' && !(ORIGINAL in fn)) proto[method] = wrapAgentMethod(fn);
  }
}

function assign(target: Record<string, unknown>, name: string, value: unknown): boolean {
  try {
    target[name] = value;
    return target[name] === value;
  } catch (err) {
    diag.debug(`faultline: ai ${name} is read-only here`, err);
    return false;
  }
}
