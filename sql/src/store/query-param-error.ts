/** A named query was called with missing, unknown or mistyped parameters, or does not exist. */
export class QueryParamError extends Error {
  override readonly name = 'QueryParamError';
}
