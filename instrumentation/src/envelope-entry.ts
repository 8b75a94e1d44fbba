// `@faultline/instrumentation/envelope`: the contract (src/envelope/) plus what the collector
// derives from a span, which classifies by status and so sits above the HTTP classifier.
export {
  addDerivedAttributes,
  type DerivableSpan,
  derivedStatusMessage,
} from './derive/derived-attributes.js';
export * from './envelope/index.js';
export { httpStatusEnvelope } from './http/http-status-envelope.js';
