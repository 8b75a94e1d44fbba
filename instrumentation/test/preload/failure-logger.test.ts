import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { type Logger, type LogRecord, SeverityNumber } from '@opentelemetry/api-logs';
import { describe, expect, it } from 'vitest';
import { FailureLoggerProvider } from '../../src/preload/pipeline/failure-logger.js';

/** A LoggerProvider that keeps what reaches it, or throws on every emit. */
function sdkDouble(throwing = false) {
  const emitted: LogRecord[] = [];
  const logger: Logger = {
    emit(record) {
      if (throwing) throw new Error('sdk broke');
      emitted.push(record);
    },
    enabled: () => true,
  };
  return { emitted, provider: { getLogger: () => logger } };
}

const SPAN = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 };

describe('the failure logger in front of the SDK', () => {
  it('lets only failure records through, each error with its envelope', () => {
    const sdk = sdkDouble();
    const failures = new FailureLoggerProvider(sdk.provider);
    const logger = failures.getLogger('app');
    logger.emit({ severityNumber: SeverityNumber.INFO, body: 'started' });
    logger.emit({ severityNumber: SeverityNumber.WARN, body: 'slow' });
    // A real Node system error, at WARN: an error at any severity is a failure record.
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
      code: 'ECONNREFUSED',
      errno: -111,
      syscall: 'connect',
    });
    const inSpan = trace.setSpanContext(ROOT_CONTEXT, SPAN);
    logger.emit({
      severityNumber: SeverityNumber.WARN,
      body: 'retrying',
      exception: refused,
      context: inSpan,
    });
    // ERROR with no error: exported as it is, the collector decides what its attributes show.
    logger.emit({ severityNumber: SeverityNumber.ERROR, body: 'something is off', attributes: { k: 'v' } });
    // No severity number, an error severity text.
    logger.emit({ severityText: 'FATAL', body: 'giving up' });
    expect(sdk.emitted.map((r) => r.body)).toEqual(['retrying', 'something is off', 'giving up']);
    expect(failures.accepted).toBe(3);
    expect(sdk.emitted[0]?.attributes).toMatchObject({
      'faultline.class': 'transient',
      'faultline.code': 'ECONNREFUSED',
      'faultline.correlation_id': SPAN.traceId,
    });
    // The record keeps the context it was logged in: the SDK takes its trace and span ids from it.
    expect(trace.getSpanContext(sdk.emitted[0]!.context!)).toEqual(SPAN);
    expect(sdk.emitted[1]?.attributes).toEqual({ k: 'v' });
  });

  it('classifies the semantic conventions’ exception attributes, a code as a code', () => {
    const sdk = sdkDouble();
    new FailureLoggerProvider(sdk.provider).getLogger('billing').emit({
      severityNumber: SeverityNumber.ERROR,
      attributes: { 'exception.type': 'ECONNRESET', 'exception.message': 'socket hang up' },
    });
    expect(sdk.emitted[0]?.attributes).toMatchObject({
      'faultline.class': 'transient',
      'faultline.code': 'ECONNRESET',
      'exception.type': 'ECONNRESET',
    });
  });

  it('never throws into the logging call, whatever the SDK or the error does', () => {
    const broken = new FailureLoggerProvider(sdkDouble(true).provider).getLogger('app');
    expect(() => broken.emit({ severityNumber: SeverityNumber.ERROR, body: 'x' })).not.toThrow();
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        ownKeys() {
          throw new Error('trap');
        },
      },
    );
    const sdk = sdkDouble();
    const logger = new FailureLoggerProvider(sdk.provider).getLogger('app');
    expect(() => logger.emit({ severityNumber: SeverityNumber.ERROR, exception: hostile })).not.toThrow();
  });
});
