import { BlockList, isIP } from 'node:net';
import { ConfigError } from '@faultline/collector';

/**
 * FAULTLINE_DASHBOARD_TRUSTED_PROXIES: addresses or CIDRs (comma or space separated) of the
 * authenticating reverse proxy. Names are refused: what a name resolves to can change under us.
 * Returns { list: BlockList, entries: string[] }.
 */
export function parseTrustedProxies(raw, variable = 'FAULTLINE_DASHBOARD_TRUSTED_PROXIES') {
  const list = new BlockList();
  const entries = String(raw)
    .split(/[\s,]+/)
    .filter((e) => e !== '');
  if (entries.length === 0) throw new ConfigError(`${variable} is empty: give the proxy's address or CIDR`);
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const bits = prefix === undefined ? max : /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
    if (family === 0 || extra !== undefined || bits < 0 || bits > max) {
      throw new ConfigError(
        `${variable}: "${entry}" is not an IP address or CIDR (e.g. 10.0.0.5, 10.0.0.0/8, fd00::/64)`,
      );
    }
    list.addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
  }
  return { list, entries };
}

/** The peer address as one spelling: IPv4 clients of a dual-stack socket arrive as ::ffff:a.b.c.d. */
export function normalizeAddress(address) {
  const a = String(address ?? '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  return mapped ? mapped[1] : a;
}

/** True when the TCP peer (never a forwarded header) is one of the trusted proxies. */
export function isTrustedAddress(proxies, remoteAddress) {
  const address = normalizeAddress(remoteAddress);
  const family = isIP(address);
  if (family === 0) return false;
  return proxies.list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
