import { describe, expect, it } from 'vitest';
import { shownAttribute, shownText } from '../src/lib/shown-value';

// What the request page's span panel shows of a span's own attributes, events and resource:
// stored as services sent them, so redacted here as the collector redacts an envelope.
describe('shownAttribute', () => {
  it('shows no value for a key that names a secret', () => {
    for (const key of [
      'http.request.header.authorization',
      'http.request.header.cookie',
      'db.password',
      'x-api-key',
    ])
      expect(shownAttribute(key, 'Bearer abc.def.ghi', 18, 2000).value).toBe('[REDACTED]');
  });

  it('redacts credentials inside free text and leaves the rest readable', () => {
    const show = (key: string, v: string) => shownAttribute(key, v, v.length, 2000).value;
    expect(show('db.statement', "UPDATE users SET password='hunter2' WHERE id = 7")).toBe(
      "UPDATE users SET password='[REDACTED]' WHERE id = 7",
    );
    expect(show('url.full', 'https://api.example.com/v1/orders?api_key=abc123def456&cart=42')).toBe(
      'https://api.example.com/v1/orders?api_key=[REDACTED]&cart=42',
    );
    expect(
      show('exception.message', 'upstream said: Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.x.y'),
    ).not.toContain('eyJhbGciOiJIUzI1NiJ9');
    expect(show('db.connection', 'postgres://app:s3cret@db:5432/shop')).toBe(
      'postgres://app:[REDACTED]@db:5432/shop',
    );
    expect(show('http.route', '/orders/:id')).toBe('/orders/:id');
  });

  it('redacts before it cuts, so a secret at the edge does not show its first half', () => {
    const head = `${'x'.repeat(1990)} password=abcdefghijklmnop and more`;
    const got = shownAttribute('log', head, 12_000, 2000);
    expect(got.cut).toBe(true);
    expect(got.value).not.toContain('abcdef');
    expect(got.value).toHaveLength(2000);
    expect(got.length).toBe(12_000);
  });

  it('makes reordering characters visible in keys and values', () => {
    expect(shownAttribute('a\u202Eb', 'gnp.\u202Eexe', 9, 2000)).toEqual({
      key: 'a⟨U+202E⟩b',
      value: 'gnp.⟨U+202E⟩exe',
      length: 9,
      cut: false,
    });
    expect(shownText('short', 5, 2000)).toEqual({ text: 'short', cut: false });
  });
});
