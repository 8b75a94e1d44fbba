import type { ClassifyContext, ErrorClass } from '../types.js';
import { read, readString } from './safe-read.js';
import type { Verdict } from './verdict.js';

/**
 * Redis through ioredis (ReplyError from redis-errors, MaxRetriesPerRequestError…) and node-redis
 * (ErrorReply / SimpleError, SocketClosedUnexpectedlyError…). A server reply error's first word is
 * its code: "WRONGTYPE Operation against a key…", "NOAUTH Authentication required.".
 * Code rule: that prefix ("WRONGTYPE"); for client-side errors, the error's name, or for
 * ioredis's plain-Error rejections a fixed code per message ("CONNECTION_CLOSED").
 */

const BY_PREFIX: Record<string, ErrorClass> = {
  WRONGTYPE: 'validation',
  ERR: 'validation', // generic command error: wrong arguments, unknown command, not an integer…
  EXECABORT: 'validation', // MULTI discarded because a queued command was invalid
  CROSSSLOT: 'validation',
  NOSCRIPT: 'validation', // load the script (SCRIPT LOAD), then call again
  BUSYKEY: 'validation', // RESTORE target key exists
  BUSYGROUP: 'validation', // consumer group already exists
  NOGROUP: 'validation',
  NOPROTO: 'validation',
  NOAUTH: 'authentication',
  WRONGPASS: 'authentication',
  NOPERM: 'authentication',
  OOM: 'transient', // maxmemory reached; eviction or expiry can free room
  BUSY: 'transient', // a script or function is running
  LOADING: 'transient', // dataset loading after restart
  MASTERDOWN: 'transient',
  READONLY: 'transient', // writing to a replica, usually right after a failover
  CLUSTERDOWN: 'transient',
  TRYAGAIN: 'transient', // multi-key command during resharding
  MOVED: 'transient', // slot moved: the client follows the redirect
  ASK: 'transient',
  NOREPLICAS: 'transient',
  MISCONF: 'transient', // RDB snapshot failing, writes refused until it recovers
  UNBLOCKED: 'transient',
  NOTBUSY: 'permanent',
  UNKILLABLE: 'permanent',
};

/** Redirects and resharding are answered at once by a well-behaved client. */
const REPLAY_NOW = new Set(['MOVED', 'ASK', 'TRYAGAIN']);

/** Client-side errors of ioredis and node-redis, by name. */
const BY_NAME: Record<string, ErrorClass> = {
  MaxRetriesPerRequestError: 'transient',
  ClusterAllFailedError: 'transient',
  AbortError: 'transient', // redis-errors: command aborted because the connection dropped
  InterruptError: 'transient',
  ParserError: 'permanent',
  ConnectionTimeoutError: 'transient',
  SocketClosedUnexpectedlyError: 'transient',
  ReconnectStrategyError: 'transient',
  ClientOfflineError: 'transient',
  DisconnectsClientError: 'transient',
  CommandTimeoutDuringMaintenanceError: 'transient',
  TimeoutError: 'transient', // node-redis: the command waited too long to be written
  // node-redis v5+: the reply did not come in time, or the socket went quiet. The command may
  // have run; the condition (a slow or unreachable server) is still a passing one.
  TimeoutReadError: 'transient',
  SocketTimeoutError: 'transient',
  SocketTimeoutDuringMaintenanceError: 'transient',
  CommandTimeoutReadDuringMaintenanceError: 'transient',
  AbortReadError: 'permanent', // the caller's AbortSignal fired after the command was sent
  RootNodesUnavailableError: 'transient', // cluster: no root node answered
  MaxCommandRedirectionsError: 'transient', // cluster still resharding after every redirect
  WatchError: 'transient', // optimistic lock lost: replay the transaction
  ClientClosedError: 'permanent', // the application closed the client
};

/**
 * ioredis rejects pending commands with plain Errors carrying these messages; their name is just
 * "Error", so each gets a stable code of its own.
 */
const BY_MESSAGE: Record<string, [ErrorClass, string]> = {
  'Connection is closed.': ['transient', 'CONNECTION_CLOSED'],
  'Command timed out': ['transient', 'COMMAND_TIMEOUT'],
  'None of startup nodes is available': ['transient', 'CLUSTER_NO_STARTUP_NODES'],
  'Cluster is disconnected.': ['transient', 'CLUSTER_DISCONNECTED'],
  'Failed to refresh slots cache.': ['transient', 'CLUSTER_SLOTS_REFRESH_FAILED'],
};

const REPLY_NAMES = new Set(['ReplyError', 'ErrorReply', 'SimpleError', 'BlobError', 'RedisError']);

/** "ERR max number of clients reached" and friends: ERR is generic, the text says more. */
function refineErr(message: string): ErrorClass {
  if (message.startsWith('ERR max number of clients')) return 'transient';
  if (message.startsWith('ERR invalid password') || message.startsWith('ERR AUTH')) return 'authentication';
  if (message.startsWith('ERR Client sent AUTH')) return 'authentication';
  return 'validation';
}

function replyPrefix(message: string): string | undefined {
  let end = 0;
  while (end < message.length && end < 24) {
    const c = message.charCodeAt(end);
    if (c < 65 || c > 90) break; // A-Z
    end++;
  }
  if (end === 0 || (end < message.length && message.charCodeAt(end) !== 32)) return undefined;
  return message.slice(0, end);
}

function commandName(err: unknown): string | undefined {
  return readString(read(err, 'command'), 'name');
}

export function classifyRedisError(
  err: unknown,
  ctx: ClassifyContext | undefined,
  name: string,
): Verdict | null {
  const message = readString(err, 'message') ?? '';
  const isRedis = ctx?.system === 'redis' || REPLY_NAMES.has(name);
  const raw: Record<string, unknown> = { name };
  // Only the command name: ioredis keeps the arguments too, and AUTH's argument is a password.
  const command = commandName(err);
  if (command !== undefined) raw.command = command;

  if (isRedis) {
    const prefix = replyPrefix(message);
    if (prefix !== undefined && prefix in BY_PREFIX) {
      raw.code = prefix;
      const cls = prefix === 'ERR' ? refineErr(message) : (BY_PREFIX[prefix] as ErrorClass);
      const verdict: Verdict = { class: cls, code: prefix, source: 'db', raw };
      if (REPLAY_NOW.has(prefix)) verdict.retryAfter = 0;
      return verdict;
    }
  }
  const byName = BY_NAME[name];
  // AbortError and TimeoutError are generic names: only redis's own count without ctx.system.
  if (byName !== undefined && (isRedis || (name !== 'AbortError' && name !== 'TimeoutError'))) {
    return { class: byName, code: name, source: 'db', raw };
  }
  // The texts are ioredis's own and distinctive enough to trust without ctx.system.
  const byMessage = BY_MESSAGE[message];
  if (byMessage !== undefined) return { class: byMessage[0], code: byMessage[1], source: 'db', raw };
  if (REPLY_NAMES.has(name))
    return { class: 'permanent', code: replyPrefix(message) ?? name, source: 'db', raw };
  return null;
}
