import { OtlpDecodeError } from './otlp-decode-error.js';

/**
 * A bounds-checked protobuf wire reader. protobufjs's Reader silently clamps a string or bytes
 * field that runs past the end of the buffer, and reads fixed64 into Long objects; the OTLP decoder
 * needs truncation to be an error and timestamps as two uint32 halves, so it reads the wire itself.
 */
export class ProtoReader {
  readonly buf: Buffer;
  pos: number;
  /** End of the message being read (exclusive); nested messages narrow it. */
  end: number;

  constructor(buf: Buffer, start = 0, end = buf.length) {
    this.buf = buf;
    this.pos = start;
    this.end = end;
  }

  /** A varint that fits in 32 bits (tags, lengths, enums); longer varints keep their low 32 bits. */
  uint32(): number {
    const buf = this.buf;
    let pos = this.pos;
    let result = 0;
    let shift = 0;
    while (true) {
      if (pos >= this.end) throw truncated();
      const b = buf[pos++]!;
      if (shift < 28) result |= (b & 0x7f) << shift;
      else if (shift === 28) result |= (b & 0x0f) << 28;
      if (b < 0x80) break;
      shift += 7;
      if (shift > 63) throw new OtlpDecodeError('invalid protobuf: varint longer than 10 bytes');
    }
    this.pos = pos;
    return result >>> 0;
  }

  /** A 64-bit varint as [low, high] uint32 halves. */
  varint64(): [number, number] {
    const buf = this.buf;
    let lo = 0;
    let hi = 0;
    let pos = this.pos;
    for (let i = 0; i < 10; i++) {
      if (pos >= this.end) throw truncated();
      const b = buf[pos++]!;
      const bits = b & 0x7f;
      if (i < 4) lo |= bits << (7 * i);
      else if (i === 4) {
        lo |= (bits & 0x0f) << 28;
        hi |= bits >>> 4;
      } else hi |= bits << (7 * i - 32);
      if (b < 0x80) {
        this.pos = pos;
        return [lo >>> 0, hi >>> 0];
      }
    }
    throw new OtlpDecodeError('invalid protobuf: varint longer than 10 bytes');
  }

  /** fixed64 as [low, high] uint32 halves. */
  fixed64(): [number, number] {
    const pos = this.pos;
    if (pos + 8 > this.end) throw truncated();
    this.pos = pos + 8;
    return [this.buf.readUInt32LE(pos), this.buf.readUInt32LE(pos + 4)];
  }

  /** fixed32 (a LogRecord's flags) as an unsigned integer. */
  fixed32(): number {
    const pos = this.pos;
    if (pos + 4 > this.end) throw truncated();
    this.pos = pos + 4;
    return this.buf.readUInt32LE(pos);
  }

  double(): number {
    const pos = this.pos;
    if (pos + 8 > this.end) throw truncated();
    this.pos = pos + 8;
    return this.buf.readDoubleLE(pos);
  }

  /** Reads a length prefix and returns the end offset of the delimited field, checked. */
  delimitedEnd(): number {
    const len = this.uint32();
    const end = this.pos + len;
    if (end > this.end) throw truncated();
    return end;
  }

  string(): string {
    const end = this.delimitedEnd();
    const start = this.pos;
    this.pos = end;
    return end - start < 24
      ? shortUtf8(this.buf, start, end)
      : (this.buf as FastBuffer).utf8Slice(start, end);
  }

  /**
   * A string that repeats across spans (attribute keys): short ASCII ones come from a small intern
   * table, saving the allocation and the slice call for every span.
   */
  key(): string {
    const end = this.delimitedEnd();
    const start = this.pos;
    this.pos = end;
    if (end - start > 64) return (this.buf as FastBuffer).utf8Slice(start, end);
    const buf = this.buf;
    let h = end - start;
    for (let i = start; i < end; i++) {
      const c = buf[i]!;
      if (c >= 0x80) return (buf as FastBuffer).utf8Slice(start, end);
      h = (Math.imul(h, 31) + c) | 0;
    }
    const slot = h & (INTERN_SIZE - 1);
    const cached = INTERN[slot];
    if (cached !== undefined && cached.length === end - start) {
      let same = true;
      for (let i = 0; i < cached.length; i++) {
        if (cached.charCodeAt(i) !== buf[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return cached;
    }
    const s = (buf as FastBuffer).latin1Slice(start, end);
    INTERN[slot] = s;
    return s;
  }

  /** Lower-case hex of a bytes field (ids). */
  hex(start: number, end: number): string {
    return (this.buf as FastBuffer).hexSlice(start, end);
  }

  bytes(): Buffer {
    const end = this.delimitedEnd();
    const start = this.pos;
    this.pos = end;
    return this.buf.subarray(start, end);
  }

  /** Skips a field of the given wire type (groups are deprecated and refused). */
  skip(wireType: number): void {
    switch (wireType) {
      case 0:
        this.varint64();
        return;
      case 1:
        if (this.pos + 8 > this.end) throw truncated();
        this.pos += 8;
        return;
      case 2:
        this.pos = this.delimitedEnd();
        return;
      case 5:
        if (this.pos + 4 > this.end) throw truncated();
        this.pos += 4;
        return;
      default:
        throw new OtlpDecodeError(`invalid protobuf: unsupported wire type ${wireType}`);
    }
  }
}

function truncated(): OtlpDecodeError {
  return new OtlpDecodeError('invalid protobuf: message truncated (a field runs past the end of the body)');
}

/**
 * Buffer's own slice methods, which `toString(encoding, …)` dispatches to after argument checks
 * that cost more than the copy for short strings (they are what protobufjs uses on Node too).
 */
interface FastBuffer extends Buffer {
  utf8Slice(start: number, end: number): string;
  latin1Slice(start: number, end: number): string;
  hexSlice(start: number, end: number): string;
}

const INTERN_SIZE = 1024;
const INTERN: (string | undefined)[] = new Array(INTERN_SIZE);

// Small values are mostly short ASCII: one byte scan plus latin1Slice beats the UTF-8 decoder.
function shortUtf8(buf: Buffer, start: number, end: number): string {
  for (let i = start; i < end; i++) {
    if (buf[i]! >= 0x80) return (buf as FastBuffer).utf8Slice(start, end);
  }
  return (buf as FastBuffer).latin1Slice(start, end);
}
