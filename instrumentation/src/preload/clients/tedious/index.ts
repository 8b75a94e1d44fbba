/** `tedious`: SQL Server spans, with the driver's own error filed against each failed request. */
export { TediousErrorInstrumentation } from './tedious-errors.js';
