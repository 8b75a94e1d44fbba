/**
 * Builds driver errors by feeding real wire-protocol bytes to the drivers' own parsers, so every field
 * (and every field the driver leaves undefined) is exactly what production code receives.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

interface PgParser {
  parse(buffer: Buffer, callback: (message: unknown) => void): void;
}
interface MysqlPacket {
  asError(encoding?: string): Error;
}
interface RedisDecoder {
  write(chunk: Buffer): void;
}

// pg-protocol is pg's own dependency: resolve it from pg so the parser is the one pg really uses.
const { Parser } = require(
  require.resolve('pg-protocol/dist/parser', { paths: [dirname(require.resolve('pg'))] }),
) as {
  Parser: new () => PgParser;
};

const mysqlDir = dirname(require.resolve('mysql2'));
const Packet = require(join(mysqlDir, 'lib/packets/packet.js')) as new (
  id: number,
  buffer: Buffer,
  start: number,
  end: number,
) => MysqlPacket;

const ioredisDir = dirname(require.resolve('ioredis/package.json'));
const { Decoder } = require(join(ioredisDir, 'built/resp/decoder.js')) as {
  Decoder: new (config: {
    onReply: (reply: unknown) => void;
    onErrorReply: (err: Error) => void;
    onPush: (reply: unknown) => void;
    getTypeMapping: () => Record<string, unknown>;
  }) => RedisDecoder;
};

/** PostgreSQL ErrorResponse ('E') fields by their protocol letter: S, V, C, M, D, H, n, t, s, F, L, R. */
export type PgFields = Record<string, string>;

/** A pg-protocol 1.16 DatabaseError parsed from a real ErrorResponse message. */
export function pgDatabaseError(fields: PgFields): Error {
  const body = Buffer.concat([
    ...Object.entries(fields).map(([k, v]) => Buffer.from(`${k}${v}\0`, 'utf8')),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(5);
  header.write('E', 0, 'ascii');
  header.writeInt32BE(body.length + 4, 1);
  let parsed: unknown;
  new Parser().parse(Buffer.concat([header, body]), (message) => {
    parsed = message;
  });
  if (!(parsed instanceof Error)) throw new Error('pg-protocol did not produce a DatabaseError');
  return parsed;
}

/** A mysql2 3.24 error from a real ERR packet (0xff, errno, '#', SQLSTATE, message), as Command.execute adds `sql`. */
export function mysqlServerError(errno: number, sqlState: string, message: string, sql?: string): Error {
  const payload = Buffer.concat([
    Buffer.from([0xff, errno & 0xff, errno >> 8]),
    Buffer.from(`#${sqlState}${message}`, 'utf8'),
  ]);
  const frame = Buffer.concat([
    Buffer.from([payload.length & 0xff, (payload.length >> 8) & 0xff, payload.length >> 16, 1]),
    payload,
  ]);
  const err = new Packet(1, frame, 0, frame.length).asError('utf8');
  if (sql !== undefined) Object.assign(err, { sql });
  return err;
}

/** An ioredis 6 ReplyError decoded from a RESP simple error, with `command` attached as DataHandler.returnError does. */
export function redisReplyError(line: string, command: { name: string; args: unknown[] }): Error {
  let out: Error | undefined;
  const decoder = new Decoder({
    onReply: () => {},
    onErrorReply: (err) => {
      out = err;
    },
    onPush: () => {},
    getTypeMapping: () => ({}),
  });
  decoder.write(Buffer.from(`-${line}\r\n`, 'utf8'));
  if (!out) throw new Error('ioredis decoder did not produce a ReplyError');
  Object.assign(out, { command });
  return out;
}

const MaxRetriesPerRequestError = (
  require(join(ioredisDir, 'built/errors/MaxRetriesPerRequestError.js')) as {
    default: new (n: number) => Error;
  }
).default;

/** ioredis's real MaxRetriesPerRequestError (a redis-errors AbortError). */
export function ioredisMaxRetriesError(maxRetriesPerRequest: number): Error {
  return new MaxRetriesPerRequestError(maxRetriesPerRequest);
}
