export { listNamedQueries } from './named-queries.js';
export { openStoreWith } from './open-store.js';
export { QueryParamError } from './query-param-error.js';
export { resolveStoreOptions } from './store-options.js';
export type { HeldDirectory, StoreParts } from './store-parts.js';
