/** `grpc`: @grpc/grpc-js client and server spans, with the call's error captured (CJS and ESM). */
export { EsmAwareGrpcInstrumentation } from './grpc-esm.js';
