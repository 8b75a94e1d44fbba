/**
 * An attribute as the collector's rows hold it, for the counting rules' TypeScript twins: the SQL
 * rules read `attrs['key']`, which is '' for an absent key, and every stored value is text (a
 * number in decimal, a boolean as 'true'/'false'). The preload's attributes are still typed, so
 * the twins read them through this to agree with SQL on `8080` and '8080', `true` and 'true'.
 */
export function storedText(value: unknown): string {
  if (typeof value === 'string') return value;
  return value === undefined || value === null ? '' : String(value);
}
