export { BodyPool } from './body-pool.js';
export { createSpanWriter } from './create-span-writer.js';
export { SaturatedError } from './saturated-error.js';
