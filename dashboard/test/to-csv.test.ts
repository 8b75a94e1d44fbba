import { toCsv } from '@faultline/sql/format';
import { describe, expect, it } from 'vitest';

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

  it('neutralises cells a spreadsheet would run as formulas, and leaves numbers alone', () => {
    const csv = toCsv(
      ['v'],
      [
        { v: '=HYPERLINK("http://evil.example","x")' },
        { v: '+1+cmd|calc' },
        { v: '-2+3' },
        { v: '@SUM(A1)' },
        { v: '\t=1' },
        { v: '\r=1' },
        { v: -5 },
        { v: '-5' },
        { v: '-1.5e3' },
        { v: 'a=b' },
      ],
    );
    expect(csv.split('\r\n')).toEqual([
      'v',
      `"'=HYPERLINK(""http://evil.example"",""x"")"`,
      "'+1+cmd|calc",
      "'-2+3",
      "'@SUM(A1)",
      "'\t=1",
      `"'\r=1"`,
      '-5',
      '-5',
      '-1.5e3',
      'a=b',
    ]);
  });
});
