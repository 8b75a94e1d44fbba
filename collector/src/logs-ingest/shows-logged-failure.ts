import { grpcStatusOf } from '@faultline/instrumentation';
import { failingHttpStatusOf } from '@faultline/instrumentation/envelope';

/** SeverityNumber ERROR; ERROR2…4 and FATAL…FATAL4 are above it (logs data model). */
export const SEVERITY_ERROR = 17;

/** Severity texts that mean ERROR or worse when a record's number is unset (0). */
const ERROR_TEXTS = /^(error|err|fatal|critical|crit|severe|alert|emerg(ency)?|panic)\d?$/i;

const present = (v: string | undefined): boolean => v !== undefined && v !== '';

/**
 * Whether a log record shows a failure to classify: an `exception.*` attribute (the exception a
 * span event would have carried, at whatever severity it was logged), or a severity of ERROR or
 * above with an error shape the span classifiers read: `error.type`, a failing HTTP status, a gRPC
 * status other than OK, or a database's response code. An ERROR line with none of these says only
 * that something went wrong somewhere: it names no failed operation, so it is not counted.
 */
export function showsLoggedFailure(
  severityNumber: number,
  severityText: string,
  attrs: Record<string, string>,
): boolean {
  if (present(attrs['exception.type']) || present(attrs['exception.message'])) return true;
  const atLeastError = severityNumber > 0 ? severityNumber >= SEVERITY_ERROR : ERROR_TEXTS.test(severityText);
  if (!atLeastError) return false;
  if (present(attrs['error.type']) || present(attrs['db.response.status_code'])) return true;
  if (failingHttpStatusOf(attrs) !== undefined) return true;
  const grpc = grpcStatusOf(attrs);
  return grpc !== undefined && grpc !== 0;
}
