import { createRequire } from 'node:module';
import { safely } from '../shared/safe.js';

/** pino's own error level: its log sending maps it to SeverityNumber ERROR (failure-logger.ts). */
const PINO_ERROR_LEVEL = 50;

interface PinoStreamLike {
  lastLevel?: number;
  _errorKey?: string;
  _levels?: { values?: Record<string, number> };
  _write(line: unknown, encoding: unknown, callback: () => void): void;
}

/**
 * pino's log sending (@opentelemetry/instrumentation-pino) parses every line the application logs
 * as JSON to build a record, and the preload exports failures only (failure-logger.ts drops the
 * rest). So a line below pino's error level that names no error (its error key, or `exception.*`)
 * is let go before the parse: an info-heavy service pays a compare and a substring search per line,
 * not a JSON.parse of it. The test is the one isFailureRecord applies to the record it would become.
 * Patched once on the stream's class; a pino instrumentation of another shape is left as it is.
 */
export function sendOnlyFailureLines(): void {
  safely('pino failure lines', () => {
    const load = createRequire(import.meta.url);
    const utils = createRequire(load.resolve('@opentelemetry/instrumentation-pino'))(
      './log-sending-utils.js',
    ) as { OTelPinoStream?: { prototype: PinoStreamLike } };
    const proto = utils.OTelPinoStream?.prototype;
    if (!proto || typeof proto._write !== 'function' || PATCHED in proto) return;
    const write = proto._write;
    Object.defineProperty(proto, PATCHED, { value: true });
    proto._write = function (this: PinoStreamLike, line, encoding, callback) {
      const errorLevel = this._levels?.values?.error ?? PINO_ERROR_LEVEL;
      if (typeof this.lastLevel === 'number' && this.lastLevel < errorLevel && !namesError(this, line)) {
        callback();
        return;
      }
      write.call(this, line, encoding, callback);
    };
  });
}

const PATCHED = Symbol.for('faultline.pino-failure-lines');

function namesError(stream: PinoStreamLike, line: unknown): boolean {
  const text = typeof line === 'string' ? line : String(line);
  return text.includes(`"${stream._errorKey ?? 'err'}":`) || text.includes('"exception.');
}
