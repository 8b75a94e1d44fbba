/** Decimal text of a two's-complement int64 given as uint32 halves (protobuf int64 varint). */
export function int64String(lo: number, hi: number): string {
  // |value| < 2^53: one exact float multiply-add.
  if (hi < 0x200000) return String(hi * 4294967296 + lo);
  if (hi >= 0xffe00000) return String((hi - 4294967296) * 4294967296 + lo);
  return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo)).toString();
}
