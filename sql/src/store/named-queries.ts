import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { resolveSqlDir } from '../ddl/sql-dir.js';
import type { NamedQueryInfo, NamedQueryParam } from '../types.js';
import { checkParam } from './check-param.js';
import { QueryParamError } from './query-param-error.js';

/** A parsed sql/queries/<name>.sql file. */
export interface NamedQuery extends NamedQueryInfo {
  sql: string;
}

const NAME = /^[a-z0-9_]+(\/[a-z0-9_]+)*$/;
const PLACEHOLDER = /\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([^}]+?)\s*\}/g;
const cache = new Map<string, NamedQuery>();

/** Parses a named query file: `-- name:` and `-- description:` header lines, then `{p:Type}` placeholders. */
export function parseNamedQuery(name: string, text: string): NamedQuery {
  const header = (key: string) => text.match(new RegExp(`^--\\s*${key}:\\s*(.+)$`, 'm'))?.[1]?.trim();
  const declared = header('name');
  if (declared !== name && declared !== name.split('/').pop()) {
    throw new Error(
      `sql/queries/${name}.sql must start with '-- name: ${name.split('/').pop()}', found ${declared}`,
    );
  }
  const params: NamedQueryParam[] = [];
  for (const [, pname, ptype] of text.matchAll(PLACEHOLDER)) {
    const existing = params.find((p) => p.name === pname);
    if (existing && existing.type !== ptype) {
      throw new Error(`sql/queries/${name}.sql declares {${pname}} as both ${existing.type} and ${ptype}`);
    }
    if (!existing) params.push({ name: pname!, type: ptype! });
  }
  return { name, description: header('description') ?? '', params, sql: text };
}

/** Loads sql/queries/<name>.sql once per process. */
export function loadNamedQuery(name: string): NamedQuery {
  const hit = cache.get(name);
  if (hit) return hit;
  if (!NAME.test(name)) {
    throw new QueryParamError(
      `named query ${JSON.stringify(name)} is not a valid name (lowercase, digits, _ and /)`,
    );
  }
  const file = join(resolveSqlDir(), 'queries', `${name}.sql`);
  if (!existsSync(file)) {
    const known = listNamedQueries()
      .map((q) => q.name)
      .join(', ');
    throw new QueryParamError(`no named query ${JSON.stringify(name)} in sql/queries; known: ${known}`);
  }
  const query = parseNamedQuery(name, readFileSync(file, 'utf8'));
  cache.set(name, query);
  return query;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) return walk(full);
    return entry.endsWith('.sql') ? [full] : [];
  });
}

/** Every named query under sql/queries (sub-folders give `dashboard/<name>`), sorted by name. */
export function listNamedQueries(): NamedQueryInfo[] {
  const root = join(resolveSqlDir(), 'queries');
  if (!existsSync(root)) return [];
  return walk(root)
    .map((file) => relative(root, file).slice(0, -'.sql'.length).split(sep).join('/'))
    .filter((name) => NAME.test(name))
    .sort()
    .map((name) => {
      const { sql: _sql, ...info } = loadNamedQuery(name);
      return info;
    });
}

/**
 * Checks `params` against the query's placeholders: every one present, none unknown, each of the
 * right type. Returns the values to send as ClickHouse query parameters.
 */
export function bindParams(query: NamedQuery, params: Record<string, unknown>): Record<string, unknown> {
  const declared = new Set(query.params.map((p) => p.name));
  const unknown = Object.keys(params).filter((k) => !declared.has(k));
  if (unknown.length > 0) {
    throw new QueryParamError(
      `named query ${query.name} has no parameter ${unknown.join(', ')}; it takes ${describeParams(query)}`,
    );
  }
  const missing = query.params.filter((p) => !(p.name in params));
  if (missing.length > 0) {
    throw new QueryParamError(
      `named query ${query.name} is missing ${missing.map((p) => `${p.name} (${p.type})`).join(', ')}; it takes ${describeParams(query)}`,
    );
  }
  const bound: Record<string, unknown> = {};
  for (const p of query.params) bound[p.name] = checkParam(p.name, p.type, params[p.name]);
  return bound;
}

function describeParams(query: NamedQuery): string {
  return query.params.length === 0
    ? 'no parameters'
    : query.params.map((p) => `${p.name}: ${p.type}`).join(', ');
}
