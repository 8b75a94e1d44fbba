import type { TraceRow } from '@faultline/sql';

/** Longest probe run tolerated before the table gives way to a Map (see SpanIndex). */
const MAX_PROBE = 32;
// Per process, so that span ids crafted to collide for one collector do not collide for another.
const SEED = (Math.random() * 0x100000000) >>> 0;

/**
 * Finds the earlier row of a span (same trace id and span id) among one export's rows. A Map keyed
 * by the ids cost ~0.5 µs per span, a sixth of the protobuf decoder's whole time; this costs about
 * a tenth of that. An open-addressing table of row indexes hashed on the span id (16 hex characters,
 * random in every SDK) with a per-process seed; the full hashes are kept beside the indexes, so
 * neither probing nor growing touches the rows (scattered in the heap) except on a real match.
 * Span ids made to collide on purpose would make probe runs long: past MAX_PROBE the index moves
 * into a Map, whose hashing V8 seeds and whose cost stays linear.
 */
export class SpanIndex {
  private readonly rows: readonly TraceRow[];
  /** Row index + 1 per slot; 0 = empty. */
  private slots = new Int32Array(256);
  private hashes = new Uint32Array(256);
  private count = 0;
  private map: Map<string, number> | undefined;
  private readonly seed: number;

  /**
   * `rows` is the array whose indexes are recorded; a row replaced in it keeps its ids. `seed` is
   * the per-process one unless a test needs collisions it can predict.
   */
  constructor(rows: readonly TraceRow[], seed: number = SEED) {
    this.rows = rows;
    this.seed = seed;
  }

  /** True once span ids collided past MAX_PROBE and the index went over to a Map. */
  get degraded(): boolean {
    return this.map !== undefined;
  }

  /** The index of an earlier row with these ids, or -1 after recording `index` for them. */
  claim(traceId: string, spanId: string, index: number): number {
    if (this.map) return this.claimInMap(traceId, spanId, index);
    if ((this.count + 1) * 2 > this.slots.length) this.grow();
    const { slots, hashes } = this;
    const mask = slots.length - 1;
    const h = spanIdHash(spanId, this.seed);
    let slot = h & mask;
    for (let probes = 0; probes < MAX_PROBE; probes++) {
      const entry = slots[slot]!;
      if (entry === 0) {
        slots[slot] = index + 1;
        hashes[slot] = h;
        this.count++;
        return -1;
      }
      if (hashes[slot] === h) {
        const row = this.rows[entry - 1]!;
        if (row.SpanId === spanId && row.TraceId === traceId) return entry - 1;
      }
      slot = (slot + 1) & mask;
    }
    this.map = new Map();
    for (const e of slots) {
      if (e !== 0) this.map.set(this.rows[e - 1]!.TraceId + this.rows[e - 1]!.SpanId, e - 1);
    }
    this.slots = new Int32Array(0);
    this.hashes = new Uint32Array(0);
    return this.claimInMap(traceId, spanId, index);
  }

  private claimInMap(traceId: string, spanId: string, index: number): number {
    const key = traceId + spanId;
    const at = this.map!.get(key);
    if (at !== undefined) return at;
    this.map!.set(key, index);
    return -1;
  }

  private grow(): void {
    const { slots: oldSlots, hashes: oldHashes } = this;
    const slots = new Int32Array(oldSlots.length * 2);
    const hashes = new Uint32Array(slots.length);
    const mask = slots.length - 1;
    for (let i = 0; i < oldSlots.length; i++) {
      if (oldSlots[i] === 0) continue;
      let slot = oldHashes[i]! & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = oldSlots[i]!;
      hashes[slot] = oldHashes[i]!;
    }
    this.slots = slots;
    this.hashes = hashes;
  }
}

/** FNV-1a over the id's characters, seeded. */
export function spanIdHash(id: string, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
