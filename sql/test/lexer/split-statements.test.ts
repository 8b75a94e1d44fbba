import { describe, expect, it } from 'vitest';
import { splitStatements } from '../../src/lexer/split-statements.js';

describe('splitStatements (on the lexer the cluster renderer uses)', () => {
  it('a # line comment holding a quote does not swallow the next statement', () => {
    expect(splitStatements("SELECT 1 # it's a comment\n; SELECT 2")).toEqual(['SELECT 1', 'SELECT 2']);
  });

  it('a ; inside a nested block comment does not split', () => {
    expect(splitStatements('SELECT /* outer /* inner ; */ still comment ; */ 1; SELECT 2')).toEqual([
      'SELECT   1',
      'SELECT 2',
    ]);
  });

  it('a ; inside strings, quoted identifiers and -- comments does not split', () => {
    expect(
      splitStatements(
        "SELECT 'a;b', \"c;d\", `e;f` -- g;h\nFROM t;\n\n-- only a comment;\n;SELECT 'it''s; fine'",
      ),
    ).toEqual(['SELECT \'a;b\', "c;d", `e;f` \nFROM t', "SELECT 'it''s; fine'"]);
  });

  it('an unterminated quote is an error that says where, not a silently merged statement', () => {
    expect(() => splitStatements("SELECT 'open; SELECT 2")).toThrow(/Unterminated ' quote at offset 7/);
  });
});
