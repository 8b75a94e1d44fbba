import { describe, expect, it } from 'vitest';
import { callName, spanKindName, statementSummary } from '../src/lib/span-call-name';

describe('callName: what a request tree row names a call by', () => {
  it('names an HTTP call by its method and path, a server span by its route', () => {
    expect(callName('Client', 'GET', { method: 'GET', path: '/429' })).toBe('GET /429');
    expect(
      callName('Server', 'GET /orders/:id', { method: 'GET', route: '/orders/:id', path: '/orders/7' }),
    ).toBe('GET /orders/:id');
    // No path: the span name says more than the method alone.
    expect(callName('Client', 'GET cache', { method: 'GET' })).toBe('GET cache');
    expect(callName('Client', 'GET', { method: '_OTHER', path: '/x' })).toBe('/x');
  });

  it('names a database call by its summary, operation and collection, or its statement’s head', () => {
    expect(callName('Client', 'pg.query', { 'db.summary': 'INSERT orders' })).toBe('INSERT orders');
    expect(callName('Client', 'find', { 'db.operation': 'find', 'db.collection': 'carts' })).toBe(
      'find carts',
    );
    expect(
      callName('Client', 'pg.query:INSERT shop', {
        'db.statement': "INSERT INTO orders (id, card) VALUES ($1, '4242 4242 4242 4242')",
      }),
    ).toBe('INSERT orders');
  });

  it('names RPC, messaging and GenAI tool calls', () => {
    expect(callName('Client', 'grpc', { 'rpc.service': 'shop.Inventory', 'rpc.method': 'Reserve' })).toBe(
      'shop.Inventory/Reserve',
    );
    expect(
      callName('Producer', 'orders publish', {
        'messaging.operation': 'publish',
        'messaging.destination': 'orders',
      }),
    ).toBe('publish orders');
    expect(callName('Internal', 'execute_tool', { tool: 'lookup_order' })).toBe('tool lookup_order');
  });

  it('falls back to the span name', () => {
    expect(callName('Internal', 'reconcile', {})).toBe('reconcile');
    expect(callName('Client', 'INSERT entries', { dependency: 'postgresql shop' })).toBe('INSERT entries');
  });
});

describe('statementSummary: operation and table, never a value', () => {
  it.each([
    ['SELECT id, name FROM users WHERE id = 5', 'SELECT users'],
    ['  insert into "Shop"."Orders" values (1)', 'INSERT "Shop"."Orders"'],
    ["UPDATE users SET password = 'hunter2' WHERE id = 1", 'UPDATE users'],
    ['DELETE FROM sessions', 'DELETE sessions'],
    ["SELECT 'from secret_table' AS x", 'SELECT'],
    ['/* app */ SELECT * FROM a JOIN b ON a.id = b.id', 'SELECT a'],
    ['SET session:9f8e7d secret-value', 'SET'],
    ['', ''],
    ["'quoted first'", ''],
  ])('%s → %s', (statement, summary) => {
    expect(statementSummary(statement)).toBe(summary);
  });
});

describe('spanKindName', () => {
  it('reads both spellings of a kind alike', () => {
    expect(spanKindName('SPAN_KIND_CLIENT')).toBe('Client');
    expect(spanKindName('Server')).toBe('Server');
  });
});
