import { type Context, context } from '@opentelemetry/api';
import type { Logger, LoggerOptions, LoggerProvider, LogRecord } from '@opentelemetry/api-logs';
import { safely } from '../shared/safe.js';
import { isFailureRecord, loggedErrorAttributes } from './logged-error.js';

/**
 * The LoggerProvider the preload registers globally, in front of its SDK LoggerProvider: what the
 * application logs through the Logs API (directly, or through pino's, winston's or bunyan's log
 * sending in @opentelemetry/auto-instrumentations-node; winston's needs @opentelemetry/winston-transport
 * installed) reaches the SDK only when it is a failure
 * (isFailureRecord), with the envelope of the error it carries; every other line is dropped here,
 * before the SDK builds a record. Nothing it does can throw into the logging call.
 */
export class FailureLoggerProvider implements LoggerProvider {
  /** Failure records handed to the SDK: a beforeExit hook flushes only when something is new. */
  accepted = 0;

  constructor(private readonly delegate: LoggerProvider) {}

  getLogger(name: string, version?: string, options?: LoggerOptions): Logger {
    return new FailureLogger(this.delegate.getLogger(name, version, options), this);
  }
}

class FailureLogger implements Logger {
  constructor(
    private readonly delegate: Logger,
    private readonly provider: FailureLoggerProvider,
  ) {}

  emit(record: LogRecord): void {
    safely('logged error', () => {
      if (!isFailureRecord(record)) return;
      const ctx: Context = record.context ?? context.active();
      const envelope = loggedErrorAttributes(record, ctx);
      this.provider.accepted++;
      this.delegate.emit(
        envelope ? { ...record, context: ctx, attributes: { ...record.attributes, ...envelope } } : record,
      );
    });
  }

  enabled(options?: Parameters<Logger['enabled']>[0]): boolean {
    return safely('logger enabled', () => this.delegate.enabled(options)) ?? false;
  }
}
