export { listNamedQueries } from './named-queries.js';
export { openStore } from './open-store.js';
export { QueryParamError } from './query-param-error.js';
export { resolveStoreOptions } from './store-options.js';
