import { describe, expect, it } from 'vitest';
import { toCsv } from '../src/lib/to-csv';

describe('toCsv', () => {
  it('quotes what needs quoting and writes arrays as JSON', () => {
    const csv = toCsv(
      ['a', 'b', 'c'],
      [
        { a: 'x,y', b: 'say "hi"', c: ['p', 'q'] },
        { a: 1, b: null },
      ],
    );
    expect(csv).toBe('a,b,c\r\n"x,y","say ""hi""","[""p"",""q""]"\r\n1,,');
  });
});
