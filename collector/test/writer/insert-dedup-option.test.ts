import { describe, expect, it } from 'vitest';
import { resolveWriterOptions } from '../../src/writer/resolve-writer-options.js';

describe('writer option insertDedup (FAULTLINE_INSERT_DEDUP)', () => {
  it('defaults to segment, takes request, and refuses anything else with the choices', () => {
    expect(resolveWriterOptions({ spoolDir: '/tmp/x-dedup' }).insertDedup).toBe('segment');
    expect(resolveWriterOptions({ spoolDir: '/tmp/x-dedup', insertDedup: 'request' }).insertDedup).toBe(
      'request',
    );
    expect(() => resolveWriterOptions({ spoolDir: '/tmp/x-dedup', insertDedup: 'rows' as never })).toThrow(
      /must be "segment" .* or "request"/,
    );
  });

  it('refuses request dedup with the insert-acknowledging writer, which has no per-export segments', () => {
    expect(() =>
      resolveWriterOptions({ spoolDir: '/tmp/x-dedup', ackAfter: 'insert', insertDedup: 'request' }),
    ).toThrow(/needs ackAfter "wal" \(env FAULTLINE_WRITER_ACK=wal, the default\)/);
  });
});
