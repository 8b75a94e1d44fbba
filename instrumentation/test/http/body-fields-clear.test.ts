import { describe, expect, it } from 'vitest';
import { BodyFields } from '../../src/http/body-fields.js';

// BodyFields are reused between bodies (body-fields.ts): clear() must reset every member, or one
// response's fields would leak into the next. The member list is read off a fresh instance, so a
// member added later without a line in clear() fails here.
describe('BodyFields.clear', () => {
  it('resets every member a body can set', () => {
    const f = new BodyFields();
    const members = Object.keys(f);
    expect(members.length).toBeGreaterThan(30);
    for (const key of members) (f as unknown as Record<string, unknown>)[key] = `set ${key}`;
    f.clear();
    for (const key of members)
      expect([key, (f as unknown as Record<string, unknown>)[key]]).toEqual([key, undefined]);
  });
});
