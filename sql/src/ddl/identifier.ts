const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/**
 * DDL and table names cannot be query parameters, so the few that come from configuration are
 * checked against a plain identifier pattern before they reach SQL text.
 */
export function assertIdentifier(value: string, what: string): string {
  if (!IDENTIFIER.test(value)) {
    throw new Error(
      `${what} must be a plain identifier (letters, digits, underscore; not starting with a digit), got ${JSON.stringify(value)}`,
    );
  }
  return value;
}
