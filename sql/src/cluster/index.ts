export { assertClusterName, CLUSTER_ENV, resolveClusterName } from './cluster-name.js';
export { clusterSchemaHeader } from './cluster-schema-header.js';
export { CLUSTER_INSERT_SETTINGS, CLUSTER_READ_SETTINGS } from './cluster-settings.js';
export { renderClusterTtl } from './cluster-ttl.js';
export { printClusterSchema } from './print-cluster-schema.js';
export {
  type ClusterSchemaOptions,
  readSchemaStatements,
  renderClusterSchema,
} from './render-cluster-schema.js';
export { LOCAL_SUFFIX, placeTable, type TablePlacement } from './sharding-key.js';
