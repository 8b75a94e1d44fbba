/**
 * The HTTP status each http-errors class name stands for. http-errors (used by express, koa and
 * their middleware: `createError(503, …)`, `new createError.NotFound()`) names every 4xx/5xx class
 * after the status's reason phrase (`statuses`, toIdentifier, "Error" appended when missing): 503
 * ServiceUnavailableError, 429 TooManyRequestsError. A span keeps only that name (OpenTelemetry JS
 * records `exception.type` = the error's `code` when it has one, else its `name`, and these have
 * no code), so the name is all that says which status the handler failed with. The name restates
 * the status, and the one code rule prefers the status (restatesStatus, root-cause-code.ts): the
 * error object itself classifies by its `status` as "503", and so does its name.
 * instrumentation/test/error/http-error-names.test.ts checks this table against http-errors.
 */
const STATUS_BY_NAME: Record<string, number> = {
  BadRequestError: 400,
  UnauthorizedError: 401,
  PaymentRequiredError: 402,
  ForbiddenError: 403,
  NotFoundError: 404,
  MethodNotAllowedError: 405,
  NotAcceptableError: 406,
  ProxyAuthenticationRequiredError: 407,
  RequestTimeoutError: 408,
  ConflictError: 409,
  GoneError: 410,
  LengthRequiredError: 411,
  PreconditionFailedError: 412,
  PayloadTooLargeError: 413,
  URITooLongError: 414,
  UnsupportedMediaTypeError: 415,
  RangeNotSatisfiableError: 416,
  ExpectationFailedError: 417,
  ImATeapotError: 418,
  MisdirectedRequestError: 421,
  UnprocessableEntityError: 422,
  LockedError: 423,
  FailedDependencyError: 424,
  TooEarlyError: 425,
  UpgradeRequiredError: 426,
  PreconditionRequiredError: 428,
  TooManyRequestsError: 429,
  RequestHeaderFieldsTooLargeError: 431,
  UnavailableForLegalReasonsError: 451,
  InternalServerError: 500,
  NotImplementedError: 501,
  BadGatewayError: 502,
  ServiceUnavailableError: 503,
  GatewayTimeoutError: 504,
  HTTPVersionNotSupportedError: 505,
  VariantAlsoNegotiatesError: 506,
  InsufficientStorageError: 507,
  LoopDetectedError: 508,
  BandwidthLimitExceededError: 509,
  NotExtendedError: 510,
  NetworkAuthenticationRequiredError: 511,
};

/** The status an HTTP error's class name states, or undefined for any other name. */
export function httpStatusOfErrorName(name: string): number | undefined {
  return Object.hasOwn(STATUS_BY_NAME, name) ? STATUS_BY_NAME[name] : undefined;
}
