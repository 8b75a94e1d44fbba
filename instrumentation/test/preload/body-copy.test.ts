import { describe, expect, it } from 'vitest';
import { BodyCopy } from '../../src/preload/shared/body-copy.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('BodyCopy', () => {
  it('assembles a body of exactly the bound from its chunks, a character split across two', () => {
    const body = '{"ok":false,"error":"déclinée"}';
    const raw = bytes(body);
    const copy = new BodyCopy(raw.length);
    // Cut inside the two-byte "é": decoding per chunk would mangle it.
    const cut = raw.indexOf(0xc3) + 1;
    copy.add(raw.subarray(0, cut));
    copy.add(raw.subarray(cut));
    expect(copy.held).toBe(raw.length);
    expect(copy.json()).toEqual({ ok: false, error: 'déclinée' });
  });

  it('drops everything and takes nothing more once one byte over the bound', () => {
    const copy = new BodyCopy(10);
    copy.add(bytes('{"ok":'));
    copy.add(bytes('false}'));
    expect(copy.open).toBe(false);
    expect(copy.held).toBe(0);
    copy.add(bytes('{}'));
    expect(copy.held).toBe(0);
    expect(copy.json()).toBeUndefined();
  });

  it('keeps a copy, not the chunk: a reused buffer does not change it', () => {
    const copy = new BodyCopy(100);
    const chunk = bytes('{"ok":false}');
    copy.add(chunk);
    chunk.fill(0x20);
    expect(copy.json()).toEqual({ ok: false });
  });

  it('skips the parse of a body without error markers and releases the copy once read', () => {
    const ok = new BodyCopy(100);
    ok.add(bytes('{"items":[1,2]}'));
    expect(ok.json()).toBeUndefined();
    const failed = new BodyCopy(100);
    failed.add(bytes('{"ok":false}'));
    expect(failed.json()).toEqual({ ok: false });
    expect(failed.open).toBe(false);
    expect(failed.json()).toBeUndefined();
  });
});
