import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Where a running Faultline answers, recorded in its data directory's lock once it listens, so
 * `faultline sql`, `migrate` and `doctor` on the same FAULTLINE_DATA_DIR talk to it instead of
 * opening the directory (which the lock forbids). URLs a process on this host can connect to.
 */
export interface InstanceEndpoints {
  /** OTLP/HTTP base URL; exporters append `/v1/traces`, and `/healthz` answers there. */
  otlp?: string;
  /** OTLP/gRPC `host:port`. */
  otlpGrpc?: string;
  /** The dashboard's base URL. */
  dashboard?: string;
  /** The SQL console's HTTP endpoint (`POST {sql} | {name, params}`), under the dashboard. */
  sql?: string;
  /** The alerts role's own /healthz and /metrics base URL, when it runs without the collector. */
  alerts?: string;
}

const ENDPOINT_KEYS = ['otlp', 'otlpGrpc', 'dashboard', 'sql', 'alerts'] as const;

/** Who holds a directory lock: written into the lock file, shown to whoever is refused. */
export interface LockOwner {
  pid: number;
  host: string;
  /** When the lock was taken (ISO 8601). */
  since: string;
  /** The holder's command line, so a refused user can tell which process it is. */
  command: string;
  /** Tells this holder's file from a later one with the same pid (a container restart). */
  token: string;
  /** Linux: the kernel boot id; a lock from an earlier boot is stale whatever its pid. */
  bootId?: string;
  /** Linux: the holder's start time in clock ticks since boot; a live pid with another start time was reused. */
  procStart?: string;
  /** Where the holder answers, once it listens (see InstanceEndpoints). */
  endpoints?: InstanceEndpoints;
}

function readProc(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/<pid>/stat (starttime); the command name before it may hold spaces and parens. */
export function procStartOf(pid: number): string | undefined {
  const stat = readProc(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

const bootId = () => readProc('/proc/sys/kernel/random/boot_id');

export function currentOwner(): LockOwner {
  const command = process.argv.join(' ');
  return {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    command: command.length > 300 ? `${command.slice(0, 300)}…` : command,
    token: randomUUID(),
    bootId: bootId(),
    procStart: procStartOf(process.pid),
  };
}

/** A lock file's content, or undefined when it is not one (garbage is treated as stale). */
export function parseOwner(raw: string): LockOwner | undefined {
  try {
    const o = JSON.parse(raw) as Partial<LockOwner>;
    if (!Number.isInteger(o.pid) || typeof o.host !== 'string' || typeof o.token !== 'string')
      return undefined;
    return {
      pid: o.pid as number,
      host: o.host,
      since: String(o.since ?? ''),
      command: String(o.command ?? ''),
      token: o.token,
      bootId: typeof o.bootId === 'string' ? o.bootId : undefined,
      procStart: typeof o.procStart === 'string' ? o.procStart : undefined,
      endpoints: parseEndpoints(o.endpoints),
    };
  } catch {
    return undefined;
  }
}

function parseEndpoints(raw: unknown): InstanceEndpoints | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const out: InstanceEndpoints = {};
  for (const key of ENDPOINT_KEYS) {
    const v = (raw as Record<string, unknown>)[key];
    if (typeof v === 'string' && v) out[key] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The endpoints as one phrase for a message, e.g. `dashboard http://…, OTLP http://…`. */
export function describeEndpoints(e: InstanceEndpoints | undefined): string {
  if (!e) return '';
  return [
    e.dashboard && `dashboard ${e.dashboard}`,
    e.otlp && `OTLP ${e.otlp}/v1/traces`,
    e.alerts && `alerts ${e.alerts}`,
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * Whether the process a lock names still runs, as far as this host can tell. `unknown` for a lock
 * taken on another host (a shared volume): only its heartbeat can tell then.
 * `heldHere` answers for this very process: a lock file naming our own pid that this process
 * does not hold was left by an earlier process that had the same pid (a container restarted).
 */
export function ownerState(owner: LockOwner, heldHere: boolean): 'alive' | 'dead' | 'unknown' {
  if (owner.host !== hostname()) return 'unknown';
  const boot = bootId();
  if (owner.bootId && boot && owner.bootId !== boot) return 'dead';
  if (owner.pid === process.pid) return heldHere ? 'alive' : 'dead';
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    // EPERM: the pid exists under another user, so it is alive.
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return 'dead';
  }
  const start = procStartOf(owner.pid);
  if (owner.procStart && start && start !== owner.procStart) return 'dead';
  return 'alive';
}
