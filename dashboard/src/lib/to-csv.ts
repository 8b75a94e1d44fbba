// CSV export lives with the CLI's output formats in the collector package (one home for both).
export { toCsv } from '@faultline/collector/format';
