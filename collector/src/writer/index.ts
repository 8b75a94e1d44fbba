export { BodyPool } from './body-pool.js';
export { createSpanWriter } from './create-span-writer.js';
export {
  type InsertBatchOptions,
  insertBatch,
  serializeRows,
  serializeRowsToBuffer,
} from './insert-batch.js';
export { SaturatedError } from './saturated-error.js';
