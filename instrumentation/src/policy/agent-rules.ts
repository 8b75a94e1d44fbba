// The agent rules' TypeScript twins (sql/schema/007_agent_rules.sql), one namespace of the package
// (`agentRules`) for the preload, the collector, the guards and the parity tests.
export {
  agentNameOf,
  isToolCall,
  modelNameOf,
  toolArgsOf,
  toolNameOf,
  toolResultOf,
} from '../envelope/agent-fields.js';
export {
  isRemedy,
  isTerminal,
  nextActionOf,
  nextActionVerdict,
  REFRESH_TOOL,
  toolHelperKind,
  WAIT_TOOL,
  waitCovered,
} from './next-action.js';
