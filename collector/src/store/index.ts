export { applySchema, listSchemaFiles } from './apply-schema.js';
export { isConnectionError } from './connection-error.js';
export { listNamedQueries } from './named-queries.js';
export { openStore } from './open-store.js';
export { QueryParamError } from './query-param-error.js';
export { resolveSqlDir } from './sql-dir.js';
export { resolveStoreOptions } from './store-options.js';
