import { describe, expect, it } from 'vitest';
import { unwritten } from '../../src/writer/wal-segment.js';

describe('unwritten (after a short writev)', () => {
  const chunks = [Buffer.from('abc'), Buffer.from('defg'), Buffer.from('h')];
  const rest = (offset: number) => Buffer.concat(unwritten(chunks, offset)).toString();

  it('is what follows the bytes written, across chunk boundaries', () => {
    expect(rest(0)).toBe('abcdefgh');
    expect(rest(2)).toBe('cdefgh');
    expect(rest(3)).toBe('defgh');
    expect(rest(5)).toBe('fgh');
    expect(rest(7)).toBe('h');
    expect(rest(8)).toBe('');
  });
});
