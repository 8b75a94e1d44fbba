export { createSpanWriter } from './create-span-writer.js';
export { type InsertBatchOptions, insertBatch, serializeRows } from './insert-batch.js';
export { SaturatedError } from './saturated-error.js';
