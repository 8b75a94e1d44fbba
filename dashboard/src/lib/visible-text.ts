// One home for the rule, shared with the CLI's table output: the collector's format module.
export { visibleText } from '@faultline/collector/format';
