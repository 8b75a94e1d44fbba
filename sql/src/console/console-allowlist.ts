/**
 * What the SQL console lets through, defined once. Everything the policy (console-policy.ts) and
 * the refusal text (console-refusal.ts) say about "allowed" comes from here.
 *
 * Faultline's own tables, views and SQL functions are not listed: they are read from
 * sql/schema by ClickHouse's parser (console-catalogue.ts), so a new schema file is covered
 * without touching this list.
 */

/** First keyword of an allowed statement (ClickHouse's lexer decides what the first token is). */
export const STATEMENT_KEYWORDS: ReadonlySet<string> = new Set([
  'SELECT',
  'WITH',
  'EXPLAIN',
  'SHOW',
  'DESCRIBE',
  'DESC',
]);

/** `EXPLAIN` kinds, as EXPLAIN AST prints them. Each reads the inner SELECT without running it. */
export const EXPLAIN_KINDS: ReadonlySet<string> = new Set([
  'EXPLAIN',
  'EXPLAIN AST',
  'EXPLAIN SYNTAX',
  'EXPLAIN QUERY TREE',
  'EXPLAIN PLAN',
  'EXPLAIN PIPELINE',
  'EXPLAIN ESTIMATE',
]);

/**
 * System tables that hold no one's data: constants and the engine's own catalogue of functions and
 * types. Not system.tables / system.columns (other databases; SHOW TABLES and DESCRIBE answer for
 * Faultline's), nor system.query_log / processes (other sessions' work) or users / settings.
 */
export const SYSTEM_TABLES: ReadonlySet<string> = new Set([
  'one',
  'numbers',
  'functions',
  'table_functions',
  'aggregate_function_combinators',
  'data_type_families',
  'time_zones',
]);

/** Table functions that generate rows from their arguments only (no file, network or other table). */
export const TABLE_FUNCTIONS: ReadonlySet<string> = new Set([
  'numbers',
  'values',
  'generate_series',
  'generateSeries',
]);

/**
 * Function categories (system.functions.categories) that reach outside the query's rows:
 * dictionaries (external sources), introspection (the binary, the server log), AI (network calls to
 * model providers) and machine-learning models loaded from files.
 */
export const DENIED_FUNCTION_CATEGORIES: ReadonlySet<string> = new Set([
  'Dictionary',
  'Embedded Dictionary',
  'Introspection',
  'AI',
  'Machine Learning',
]);

/**
 * Scalar functions that read files, other tables, settings or the host, write somewhere, or only
 * stall a console slot. Compared with the engine's canonical name (aliases resolved first).
 */
export const DENIED_FUNCTIONS: ReadonlySet<string> = new Set([
  // files and the host
  'file',
  'filesystemAvailable',
  'filesystemCapacity',
  'filesystemUnreserved',
  'FQDN',
  'hostName',
  'displayName',
  'getOSKernelVersion',
  'serverUUID',
  'showCertificate',
  // other tables
  'joinGet',
  'joinGetOrNull',
  'hasColumnInTable',
  // settings, configuration and the connection
  'getSetting',
  'getSettingOrDefault',
  'getServerSetting',
  'getMergeTreeSetting',
  'getMacro',
  'getClientHTTPHeader',
  'getServerPort',
  'tcpPort',
  'globalVariable',
  'zookeeperSessionUptime',
  'currentProfiles',
  'enabledProfiles',
  'defaultProfiles',
  'currentRoles',
  'enabledRoles',
  'defaultRoles',
  // models loaded from files, writes to Keeper, deliberate stalls
  'catboostEvaluate',
  'generateSerialID',
  'sleep',
  'sleepEachRow',
]);

/** Engine-internal functions (`__getScalar` …) are never meant for queries. */
export const INTERNAL_FUNCTION_PREFIX = '__';

/**
 * Names the parser produces that system.functions does not list (lambda, EXISTS, GROUPING,
 * untuple): they only combine their arguments.
 */
export const SYNTAX_FUNCTIONS: ReadonlySet<string> = new Set(['lambda', 'exists', 'grouping', 'untuple']);

/** `x IN t`: the right-hand identifier of these names a table, so it is checked like FROM t. */
export const IN_FUNCTIONS: ReadonlySet<string> = new Set([
  'in',
  'notIn',
  'nullIn',
  'notNullIn',
  'globalIn',
  'globalNotIn',
  'globalNullIn',
  'globalNotNullIn',
  'inIgnoreSet',
  'notInIgnoreSet',
  'nullInIgnoreSet',
  'notNullInIgnoreSet',
  'globalInIgnoreSet',
  'globalNotInIgnoreSet',
  'globalNullInIgnoreSet',
  'globalNotNullInIgnoreSet',
]);

/**
 * AST node types (as EXPLAIN AST prints them) the policy knows how to check. EXPLAIN AST prints
 * every child of these; a node it does not (ColumnsApplyTransformer hides the function APPLY runs,
 * ShowColumns its table) is refused rather than trusted.
 */
export const AST_NODE_TYPES: ReadonlySet<string> = new Set([
  'SelectWithUnionQuery',
  'SelectIntersectExceptQuery',
  'SelectQuery',
  'ExpressionList',
  'TablesInSelectQuery',
  'TablesInSelectQueryElement',
  'TableExpression',
  'TableJoin',
  'ArrayJoin',
  'TableIdentifier',
  'Identifier',
  'Function',
  'Literal',
  'Subquery',
  'WithElement',
  'OrderByElement',
  'InterpolateElement',
  'WindowDefinition',
  'WindowListElement',
  'SampleRatio',
  'Asterisk',
  'QualifiedAsterisk',
  'ColumnsListMatcher',
  'ColumnsRegexpMatcher',
  'QualifiedColumnsListMatcher',
  'QualifiedColumnsRegexpMatcher',
  'ColumnsTransformerList',
  'ColumnsExceptTransformer',
  'ColumnsReplaceTransformer',
  'ColumnsReplaceTransformer::Replacement',
]);

/** The longest statement the console parses (the lexer runs over it hex-encoded, twice its size). */
export const MAX_STATEMENT_BYTES = 64 * 1024;
