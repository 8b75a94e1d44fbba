import { randomUUID } from 'node:crypto';
import type { Store } from '@faultline/sql';
import { insertBatch } from '@faultline/sql';
import { deleteSilence, postSilence } from './alertmanager-silences.js';
import { MAX_SILENCE_MS, type SilenceSpec } from './silence-input.js';

/** A silence as stored (its latest revision) and judged at the time it was read. */
export interface Silence extends SilenceSpec {
  id: string;
  revision: number;
  createdAtMs: number;
  /** At the time read: not started yet, in force, or over (ended, or expired early). */
  status: 'pending' | 'active' | 'expired';
  /** Who expired it early ('' when it ran its course or runs still). */
  expiredBy: string;
  /** Early expiry: state 'expired' whatever the clock says. */
  expired: boolean;
  alertmanagerId: string;
  alertmanagerState: '' | 'active' | 'expired';
  mirrorError: string;
}

export interface SilenceBook {
  create(spec: SilenceSpec): Promise<Silence>;
  /** Ends a silence now; null when there is no such silence. Expiring an expired one changes nothing. */
  expire(id: string, by: string): Promise<Silence | null>;
  /** Silences that end after sinceMs (default now), newest first, with their status now. */
  list(sinceMs?: number): Promise<Silence[]>;
  /** Puts Alertmanager in step: mirrors silences it lacks, expires there what was expired here. */
  syncAlertmanager(): Promise<void>;
}

export interface SilenceBookOptions {
  store: Store;
  alertmanagerUrl: string | null;
  now?: () => number;
}

type Row = Record<string, unknown>;

const seconds = (ms: number) => (ms / 1000).toFixed(3);

function fromRow(r: Row): Silence {
  const state = String(r.alertmanager_state ?? '');
  return {
    id: String(r.silence_id),
    revision: Number(r.revision),
    service: String(r.service),
    class: String(r.class),
    alertname: String(r.alertname),
    startsAtMs: Number(r.starts_ms),
    endsAtMs: Number(r.ends_ms),
    createdAtMs: Number(r.created_ms),
    author: String(r.author),
    reason: String(r.reason),
    status: r.status === 'pending' ? 'pending' : r.status === 'active' ? 'active' : 'expired',
    expiredBy: String(r.expired_by),
    expired: r.state === 'expired',
    alertmanagerId: String(r.alertmanager_id),
    alertmanagerState: state === 'active' || state === 'expired' ? state : '',
    mirrorError: String(r.mirror_error),
  };
}

/**
 * Silences kept in ClickHouse (alert_silences, append-only: each change is a new revision) and
 * mirrored to Alertmanager when one is configured. Writes are serialized, so two changes to one
 * silence never share a revision. Alertmanager being away never fails a change here: the silence
 * holds for Faultline's own delivery at once, and syncAlertmanager (each evaluation) catches up.
 */
export function createSilenceBook(o: SilenceBookOptions): SilenceBook {
  const { store } = o;
  const now = o.now ?? Date.now;
  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => {});
    return run;
  };

  async function list(sinceMs?: number): Promise<Silence[]> {
    const nowMs = now();
    // Dates, not numbers: ClickHouse reads a short integer such as 0 as no DateTime64 at all.
    const { rows } = await store.runNamed<Row>('alerts/alert_silences', {
      now: new Date(nowMs),
      since: new Date(sinceMs ?? nowMs),
    });
    return rows.map(fromRow);
  }

  async function find(id: string): Promise<Silence | null> {
    return (await list(0)).find((s) => s.id === id) ?? null;
  }

  async function write(s: Silence): Promise<Silence> {
    const row = {
      at: seconds(now()),
      silence_id: s.id,
      revision: s.revision,
      service: s.service,
      class: s.class,
      alertname: s.alertname,
      starts_at: seconds(s.startsAtMs),
      ends_at: seconds(s.endsAtMs),
      created_at: seconds(s.createdAtMs),
      author: s.author,
      reason: s.reason,
      state: s.expired ? 'expired' : 'active',
      expired_by: s.expiredBy,
      alertmanager_id: s.alertmanagerId,
      alertmanager_state: s.alertmanagerState,
      mirror_error: s.mirrorError.slice(0, 2000),
    };
    await insertBatch(store.client, `${JSON.stringify(row)}\n`, { table: 'alert_silences' });
    const nowMs = now();
    const status = s.expired || s.endsAtMs <= nowMs ? 'expired' : s.startsAtMs > nowMs ? 'pending' : 'active';
    return { ...s, status };
  }

  /** One step toward Alertmanager for one silence: the next revision, or null when in step. */
  async function mirror(s: Silence): Promise<Silence | null> {
    const url = o.alertmanagerUrl;
    if (!url) return null;
    const over = s.expired || s.endsAtMs <= now();
    if (!over && s.alertmanagerState === '') {
      const r = await postSilence(url, s);
      return r.ok
        ? {
            ...s,
            revision: s.revision + 1,
            alertmanagerId: r.value,
            alertmanagerState: 'active',
            mirrorError: '',
          }
        : r.error === s.mirrorError
          ? null
          : { ...s, revision: s.revision + 1, mirrorError: r.error };
    }
    if (s.expired && s.alertmanagerState === 'active') {
      const r = await deleteSilence(url, s.alertmanagerId);
      // Alertmanager refuses to expire what its own clock already ended: in step all the same.
      if (r.ok || /already expired/i.test(r.error))
        return { ...s, revision: s.revision + 1, alertmanagerState: 'expired', mirrorError: '' };
      return r.error === s.mirrorError ? null : { ...s, revision: s.revision + 1, mirrorError: r.error };
    }
    return null;
  }

  return {
    list,
    create: (spec) =>
      serial(async () => {
        const created = await write({
          ...spec,
          id: randomUUID(),
          revision: 1,
          createdAtMs: now(),
          status: 'pending',
          expiredBy: '',
          expired: false,
          alertmanagerId: '',
          alertmanagerState: '',
          mirrorError: '',
        });
        const next = await mirror(created);
        return next ? write(next) : created;
      }),
    expire: (id, by) =>
      serial(async () => {
        const s = await find(id);
        if (!s) return null;
        if (s.status === 'expired') return s;
        const nowMs = now();
        const expired = await write({
          ...s,
          revision: s.revision + 1,
          // A silence that had not started ends before it would have.
          startsAtMs: Math.min(s.startsAtMs, nowMs),
          endsAtMs: nowMs,
          expired: true,
          expiredBy: by,
        });
        const next = await mirror(expired);
        return next ? write(next) : expired;
      }),
    syncAlertmanager: () =>
      serial(async () => {
        if (!o.alertmanagerUrl) return;
        // Everything a silence still owes Alertmanager: an early expiry may be as old as the longest silence.
        for (const s of await list(now() - MAX_SILENCE_MS)) {
          const next = await mirror(s);
          if (next) await write(next);
        }
      }),
  };
}
