import {
  type Instrumentation,
  InstrumentationBase,
  type InstrumentationConfig,
  InstrumentationNodeModuleDefinition,
} from '@opentelemetry/instrumentation';
import { methodFile, type Shimmer } from '../../shared/method-file.js';
import { safely } from '../../shared/safe.js';
import { type CallToolFn, wrapCallTool } from './call-tool-wrapper.js';
import { hookCjsClient } from './cjs-client-hook.js';

export const MCP_INSTRUMENTATION_NAME = '@faultline/instrumentation-mcp';
export const MCP_INSTRUMENTATION_VERSION = '0.1.0';

/** The MCP TypeScript SDK 1.x. */
const SUPPORTED = ['>=1.0.0 <2'];
const PACKAGE = '@modelcontextprotocol/sdk';

interface ClientModule {
  Client?: { prototype?: { callTool?: CallToolFn } };
}

/** The CommonJS hook and the prototypes it patched, per instrumentation (set from enable(), which the base constructor calls). */
const cjsHooks = new WeakMap<McpInstrumentation, { unhook(): void } | undefined>();
const cjsPatched = new WeakMap<McpInstrumentation, Set<object>>();

/**
 * `@modelcontextprotocol/sdk`'s client: a CLIENT span per `Client#callTool`, following the GenAI
 * conventions for MCP (call-tool-span.ts), a failed one carrying what the server answered (an
 * `isError` result, a JSON-RPC error) for the span processor to classify. The SDK ships separate
 * CommonJS and ESM builds of its client: each file is patched on its own (the class prototype,
 * which `import` and `require` each share within their build).
 */
export class McpInstrumentation extends InstrumentationBase {
  constructor(config: InstrumentationConfig = {}) {
    super(MCP_INSTRUMENTATION_NAME, MCP_INSTRUMENTATION_VERSION, config);
  }

  private shimmer(): Shimmer {
    // Protected on InstrumentationBase: handed to the shared file patch as plain functions.
    const wrap = this._wrap as unknown as Shimmer['wrap'];
    const massUnwrap = this._massUnwrap as unknown as (targets: object[], methods: string[]) => void;
    return { wrap, unwrap: (target, methods) => massUnwrap([target], methods) };
  }

  override enable(): void {
    super.enable();
    if (cjsHooks.has(this)) return;
    const patched = new Set<object>();
    cjsPatched.set(this, patched);
    cjsHooks.set(
      this,
      hookCjsClient((exports) =>
        safely('mcp client patch', () => {
          const proto = (exports as ClientModule | undefined)?.Client?.prototype;
          if (!proto || patched.has(proto) || typeof proto.callTool !== 'function') return;
          this.shimmer().wrap(
            proto,
            'callTool',
            wrapCallTool(() => this.tracer),
          );
          patched.add(proto);
        }),
      ),
    );
  }

  override disable(): void {
    super.disable();
    cjsHooks.get(this)?.unhook();
    cjsHooks.delete(this);
    const patched = cjsPatched.get(this);
    for (const proto of patched ?? [])
      safely('mcp client unpatch', () => this.shimmer().unwrap(proto, ['callTool']));
    patched?.clear();
  }

  protected init(): InstrumentationNodeModuleDefinition[] {
    const tracer = () => this.tracer;
    const shimmer = this.shimmer();
    const clientFile = (build: 'cjs' | 'esm') =>
      methodFile(
        `${PACKAGE}/dist/${build}/client/index.js`,
        SUPPORTED,
        (exports: ClientModule) => exports.Client?.prototype,
        { callTool: wrapCallTool(tracer) },
        shimmer,
      );
    return [
      new InstrumentationNodeModuleDefinition(PACKAGE, SUPPORTED, undefined, undefined, [
        clientFile('cjs'),
        clientFile('esm'),
      ]),
    ];
  }
}

/** `mcp`: a span per MCP client tool call. */
export function mcpInstrumentation(): Instrumentation {
  return new McpInstrumentation();
}
