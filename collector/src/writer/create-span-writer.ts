import type { Store } from '@faultline/sql';
import type { SpanWriter, WriterOptions } from '../types.js';
import { createInsertAckWriter } from './insert-ack-writer.js';
import { lockSpool } from './lock-spool.js';
import { resolveWriterOptions } from './resolve-writer-options.js';
import { createWalAckWriter } from './wal-ack-writer.js';

/**
 * The durable writer between the receiver and ClickHouse, in the mode `ackAfter` (env
 * FAULTLINE_WRITER_ACK) picks: `wal`, the default, acknowledges a write once it is fsync'd to the
 * write-ahead log (createWalAckWriter); `insert` once it is inserted, or spooled when ClickHouse
 * fails (createInsertAckWriter). The spool directory is locked here, before either mode reads it,
 * and for the writer's life (until `close()`); a directory another writer holds is refused with
 * DirectoryInUseError naming it. A writer that fails to start releases the lock it took.
 */
export function createSpanWriter(store: Store, options: WriterOptions = {}): SpanWriter {
  const o = resolveWriterOptions(options, store.dataDir);
  const lock = lockSpool(o.spoolDir);
  try {
    return o.ackAfter === 'wal' ? createWalAckWriter(store, o, lock) : createInsertAckWriter(store, o, lock);
  } catch (err) {
    lock.release();
    throw err;
  }
}
