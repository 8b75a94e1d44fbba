import { classifyError, classifyKnownError } from '../error/classify-error.js';
import { errorName, read, readString } from '../error/safe-read.js';
import { classifyHttpResponse } from '../http/classify-http-response.js';
import { errorLikeOf } from '../span-fields/error-like-of.js';
import { systemOfError } from '../span-fields/system-of-error.js';
import type { ClassifyContext, Envelope } from '../types.js';
import { asToolFailure } from './tool-source.js';

/**
 * The envelope of what an agent's tool threw. First what the error carries, by classifyError's
 * rules (a driver's SQLSTATE, an SDK's embedded response, a bare `status` with its `retryAfter`);
 * an MCP client's McpError by its JSON-RPC code, as a JSON-RPC error body reads; else what its
 * message states, by the reading the collector applies to a stock span's text (span-fields: an HTTP
 * status and wait, a PostgreSQL or MySQL server text, a socket failure). Only then `permanent`,
 * with the error kept in raw. Never throws.
 */
export function classifyToolError(err: unknown, ctx?: ClassifyContext): Envelope {
  const known = classifyKnownError(err, ctx) ?? mcpError(err, ctx);
  if (known !== null) return asToolFailure(known);
  const message = typeof err === 'string' ? err : readString(err, 'message');
  if (message !== undefined && message !== '') {
    const spanError = { type: errorName(err), message, errorType: undefined };
    const system = ctx?.system ?? systemOfError(spanError);
    const like = errorLikeOf(spanError, system, undefined);
    // errorLikeOf adds a field (a code, a status, an errno) only where the text states one.
    if (Object.keys(like).length > 2) return asToolFailure(classifyError(like, { ...ctx, system }));
  }
  return asToolFailure(classifyError(err, ctx));
}

/**
 * The MCP SDK's JSON-RPC errors: a thrown `McpError` by its numeric code, or the text it is
 * printed as ("MCP error -32602: Input validation error …"), which the SDK's server sends back as an
 * `isError` result for arguments its schema refuses; read as a JSON-RPC error body reads.
 */
const MCP_ERROR_TEXT = /^MCP error (-?\d{1,6}):/;

function mcpError(err: unknown, ctx: ClassifyContext | undefined): Envelope | null {
  const message = typeof err === 'string' ? err : readString(err, 'message');
  const stated = MCP_ERROR_TEXT.exec(message ?? '');
  const own = read(err, 'code');
  const code =
    errorName(err) === 'McpError' && typeof own === 'number' ? own : stated ? Number(stated[1]) : undefined;
  if (code === undefined) return null;
  const body = { jsonrpc: '2.0', error: { code, message: message ?? '' } };
  return classifyHttpResponse({ status: 200, body }, { source: 'tool', correlationId: ctx?.correlationId });
}
