import { describe, expect, it } from 'vitest';
import { classifyError } from '../../src/error/classify-error.js';
import type { ErrorClass } from '../../src/types.js';

/** The shape of libuv errors Node raises (UVExceptionWithHostPort): errno, code, syscall, address, port. */
function systemError(code: string, syscall = 'connect'): Error {
  return Object.assign(new Error(`${syscall} ${code} 127.0.0.1:9`), {
    errno: -1,
    code,
    syscall,
    address: '127.0.0.1',
    port: 9,
  });
}

describe('classifyError: Node system, DNS and TLS codes', () => {
  it.each<[string, ErrorClass]>([
    ['ECONNREFUSED', 'transient'],
    ['ECONNRESET', 'transient'],
    ['ETIMEDOUT', 'transient'],
    ['EPIPE', 'transient'],
    ['ENOTFOUND', 'transient'],
    ['EAI_AGAIN', 'transient'],
    ['EHOSTUNREACH', 'transient'],
    ['ENETUNREACH', 'transient'],
    ['ECONNABORTED', 'transient'],
    ['EADDRINUSE', 'permanent'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'permanent'],
    ['ERR_TLS_SOMETHING_NEW', 'permanent'],
    ['CERT_HAS_EXPIRED', 'permanent'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'permanent'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'permanent'],
    ['SELF_SIGNED_CERT_IN_CHAIN', 'permanent'],
    ['ERR_INVALID_URL', 'validation'],
    ['ERR_STREAM_PREMATURE_CLOSE', 'transient'],
  ])('%s → %s', (code, cls) => {
    const env = classifyError(systemError(code));
    expect(env).toMatchObject({ class: cls, code, source: 'network' });
    expect(env.raw).toMatchObject({ code, syscall: 'connect', port: 9 });
  });

  it('prefers the caller-given source over "network"', () => {
    expect(classifyError(systemError('ECONNRESET'), { source: 'http' }).source).toBe('http');
    expect(classifyError(systemError('ECONNRESET'), { system: 'redis' }).source).toBe('db');
  });

  it('reads a real ECONNREFUSED from node:net', async () => {
    const net = await import('node:net');
    const err = await new Promise<unknown>((resolve) => {
      // Port 1 on loopback: nothing listens there, the kernel answers RST at once.
      const socket = net.connect({ host: '127.0.0.1', port: 1 });
      socket.on('error', resolve);
    });
    expect(classifyError(err)).toMatchObject({ class: 'transient', code: 'ECONNREFUSED' });
  });
});
