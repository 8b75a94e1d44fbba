// The counting rules' TypeScript twins (sql/schema/005_functions.sql, 006_dependency_function.sql),
// one namespace of the package (`countingRules`) for the preload's counts and the parity tests.
export { callDependencyOf, dependencyOf, urlHostOf, urlPortOf } from './call-dependency.js';
export {
  callRoleOf,
  isCountedCall,
  isFailedSpan,
  isPropagated,
  sdkAttemptsOf,
  spanKindName,
} from './counted-call.js';
export { spanSourceOf } from './span-source.js';
