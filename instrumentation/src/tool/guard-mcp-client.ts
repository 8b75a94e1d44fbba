import { toModelEnvelope } from '../envelope/to-model-envelope.js';
import { classifyToolError } from './classify-tool-error.js';
import { classifyToolResult } from './classify-tool-result.js';
import { refusedRepeat, toolFailure } from './guard-result.js';
import type { GuardOptions } from './guard-tools.js';
import { ToolCallMemory } from './tool-call-memory.js';

interface CallToolParams {
  name: string;
  arguments?: unknown;
}
interface McpClientLike {
  callTool(params: CallToolParams, ...rest: unknown[]): Promise<unknown>;
}

/**
 * guardTools' rule for an MCP client (`@modelcontextprotocol/sdk`'s `Client`): the returned client
 * is the same client but for `callTool`, which never throws a tool's failure at the agent and never
 * repeats a terminal one. A failure reaches the caller as an MCP tool error (`isError: true`) whose
 * last text part is `{ ok: false, error: <model envelope> }` (a result that already said isError
 * keeps its own content first); a refused repeat is such a result with `refused` saying why.
 */
export function guardMcpClient<C extends McpClientLike>(client: C, options: GuardOptions = {}): C {
  const memory = options.memory ?? new ToolCallMemory();
  const callTool = async (params: CallToolParams, ...rest: unknown[]): Promise<unknown> => {
    const name = params?.name ?? '';
    const args = params?.arguments ?? {};
    memory.calling(name);
    const refused = memory.refusal(name, args);
    if (refused !== undefined) {
      options.onRefuse?.({ tool: name, args, envelope: toModelEnvelope(refused) });
      return toolError([], refusedRepeat(name, refused));
    }
    let result: unknown;
    try {
      result = await client.callTool(params, ...rest);
    } catch (err) {
      const envelope = classifyToolError(err);
      memory.record(name, args, envelope);
      return toolError([], toolFailure(envelope));
    }
    const envelope = classifyToolResult(result);
    memory.record(name, args, envelope);
    if (envelope === null) return result;
    const content = (result as { content?: unknown }).content;
    return {
      ...(result as object),
      ...toolError(Array.isArray(content) ? content : [], toolFailure(envelope)),
    };
  };
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === 'callTool') return callTool;
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function toolError(content: unknown[], failure: object): { isError: true; content: unknown[] } {
  return { isError: true, content: [...content, { type: 'text', text: JSON.stringify(failure) }] };
}
