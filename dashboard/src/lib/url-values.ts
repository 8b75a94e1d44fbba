/** A page's search params as Next.js hands them over. */
export type SearchParams = Record<string, string | string[] | undefined>;

export function single(sp: SearchParams, key: string): string | undefined {
  const value = sp[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A dependency name or a failure code has spaces, braces and the like (`postgresql shop`,
 * `api.example.com /users/{id}`): any printable text the store can hold (faultline_dependency cuts
 * at 200 characters). It only ever travels as a typed query parameter.
 */
export function parsePrintable(sp: SearchParams, key: string, what: string, max = 200): string {
  const value = single(sp, key) ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if ([...value].length > max || /[\u0000-\u001f\u007f]/.test(value)) {
    throw new RangeError(`"${key}" must be ${what} of at most ${max} printable characters.`);
  }
  return value;
}
