import { visibleText } from '@faultline/sql/format';
import { describe, expect, it } from 'vitest';

describe('visibleText', () => {
  it('names every reordering or invisible character where it stood, so a name reads in the order it was sent', () => {
    // "gnp.\u202Eexe" renders as "exe.png" without the marker.
    expect(visibleText('invoice\u202Egnp.exe')).toBe('invoice⟨U+202E⟩gnp.exe');
    expect(visibleText('a\u2066b\u2069c\u200Fd\u061Ce')).toBe('a⟨U+2066⟩b⟨U+2069⟩c⟨U+200F⟩d⟨U+061C⟩e');
    expect(visibleText('bell\u0007 nul\u0000 del\u007F c1\u0085')).toBe(
      'bell⟨U+0007⟩ nul⟨U+0000⟩ del⟨U+007F⟩ c1⟨U+0085⟩',
    );
  });

  it('leaves ordinary text, tabs, newlines and right-to-left scripts alone', () => {
    for (const s of ['checkout-api', 'line 1\nline\t2', 'שלום عالم', '<script>alert(1)</script>', ''])
      expect(visibleText(s)).toBe(s);
  });
});
