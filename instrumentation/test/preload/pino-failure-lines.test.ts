import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { sendOnlyFailureLines } from '../../src/preload/sdk/pino-failure-lines.js';

// The real OTelPinoStream of @opentelemetry/instrumentation-pino, fed lines as pino's multistream
// feeds it (lastLevel set before each write). A line that is not JSON makes the stream emit
// 'unknown' when it parses it: so a line let go before the parse emits nothing.
const load = createRequire(import.meta.url);
const { OTelPinoStream } = createRequire(load.resolve('@opentelemetry/instrumentation-pino'))(
  './log-sending-utils.js',
) as {
  OTelPinoStream: new (o: object) => NodeJS.WritableStream & { lastLevel?: number };
};

function parsedLines(lines: [level: number, line: string][]): string[] {
  const stream = new OTelPinoStream({
    messageKey: 'msg',
    errorKey: 'err',
    levels: { values: { info: 30, warn: 40, error: 50 }, labels: { 30: 'info', 40: 'warn', 50: 'error' } },
    otelTimestampFromTime: (t: number) => t,
  });
  const parsed: string[] = [];
  stream.on('unknown', (line: string) => parsed.push(line));
  for (const [level, line] of lines) {
    stream.lastLevel = level;
    stream.write(line);
  }
  return parsed;
}

describe("pino's log sending under the preload", () => {
  it('parses only the lines that can be failures: error and above, or naming an error', () => {
    sendOnlyFailureLines();
    sendOnlyFailureLines(); // patched once
    expect(
      parsedLines([
        [30, '{info not json'],
        [40, '{warn not json'],
        [40, '{"err": warn with an error, not json'],
        [30, '{"exception.type": info with one, not json'],
        [50, '{error not json'],
        [60, '{fatal not json'],
      ]),
    ).toEqual([
      '{"err": warn with an error, not json',
      '{"exception.type": info with one, not json',
      '{error not json',
      '{fatal not json',
    ]);
  });
});
