import { describe, expect, it } from 'vitest';
import { nodeName, parseExplainTree } from '../../src/console/explain-tree.js';

// The reader of EXPLAIN AST's lines: a tree only when depths and child counts agree, so a line
// that does not belong (an injected one) makes the statement unreadable, never differently read.
describe('parseExplainTree', () => {
  const lines = [
    'SelectWithUnionQuery (children 1)',
    ' ExpressionList (children 1)',
    '  SelectQuery (children 2)',
    '   ExpressionList (children 1)',
    '    Function count (alias n) (children 1)',
    '     ExpressionList',
    '   TablesInSelectQuery (children 1)',
    '    TablesInSelectQueryElement (children 1)',
    '     TableExpression (children 1)',
    '      TableIdentifier default.failures (alias f)',
  ];

  it('reads types, names and aliases', () => {
    const root = parseExplainTree(lines)!;
    expect(root.type).toBe('SelectWithUnionQuery');
    const select = root.children[0]!.children[0]!;
    const fn = select.children[0]!.children[0]!;
    expect([fn.type, nodeName(fn)]).toEqual(['Function', 'count']);
    const table = select.children[1]!.children[0]!.children[0]!.children[0]!;
    expect([table.type, nodeName(table)]).toEqual(['TableIdentifier', 'default.failures']);
  });

  it('refuses lines that do not form the declared tree', () => {
    expect(parseExplainTree([...lines, '      TableIdentifier system.users'])).toBeUndefined();
    expect(parseExplainTree(lines.slice(0, -1))).toBeUndefined();
    expect(parseExplainTree([...lines.slice(0, 3), '     Identifier x'])).toBeUndefined();
    expect(parseExplainTree([...lines, 'SelectWithUnionQuery'])).toBeUndefined();
    expect(parseExplainTree([])).toBeUndefined();
  });

  it('gives no name when a label holds more than a name and an alias', () => {
    expect(nodeName(parseExplainTree(['TableIdentifier failures x'])!)).toBeUndefined();
    expect(nodeName(parseExplainTree(['TableIdentifier failures (alias x)'])!)).toBe('failures');
  });
});
