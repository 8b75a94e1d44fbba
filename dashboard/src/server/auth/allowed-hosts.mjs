import { isIP } from 'node:net';
import { ConfigError } from '@faultline/collector';

// The DNS-rebinding rule. A page on evil.example can have its name re-pointed at 127.0.0.1 (or at
// this server's address) and then reach the dashboard as a same-origin page of its own: the only
// thing that tells such a request apart is its Host header, which names evil.example. So every
// request (pages and static files too, on loopback too) must name a host the dashboard answers
// to: localhost, an IP literal (an address cannot be re-pointed, so it cannot be rebound), the
// host of FAULTLINE_DASHBOARD_PUBLIC_URL, or one listed in FAULTLINE_DASHBOARD_ALLOWED_HOSTS.

const HOST = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9._-]+))(?::(\d{1,5}))?$/;

/** `name`, `name:port`, `[v6]:port` → { hostname (lowercase, no brackets, no trailing dot), port | null }, or null. */
export function parseHostHeader(value) {
  if (typeof value !== 'string') return null;
  const m = HOST.exec(value);
  if (!m) return null;
  let hostname = (m[1] ?? m[2]).toLowerCase();
  if (m[1] !== undefined && isIP(hostname) !== 6) return null;
  if (hostname.endsWith('.')) hostname = hostname.slice(0, -1);
  if (hostname === '' || hostname.startsWith('.')) return null;
  const port = m[3] === undefined ? null : Number(m[3]);
  if (port !== null && port > 65_535) return null;
  return { hostname, port };
}

/** FAULTLINE_DASHBOARD_ALLOWED_HOSTS: names or name:port entries, comma or space separated. */
export function parseAllowedHosts(raw, variable = 'FAULTLINE_DASHBOARD_ALLOWED_HOSTS') {
  if (raw === undefined || raw === '') return [];
  return String(raw)
    .split(/[\s,]+/)
    .filter((e) => e !== '')
    .map((entry) => {
      const host = parseHostHeader(entry);
      if (host === null) {
        throw new ConfigError(
          `${variable}: "${entry}" is not a host name (e.g. faultline.example.com or faultline.example.com:8443; no wildcards, schemes or paths)`,
        );
      }
      return host;
    });
}

/** True when a parsed Host names this dashboard (see the rule above). A name:port entry matches that port only. */
export function isAllowedHost(host, allowed) {
  if (host === null) return false;
  if (isIP(host.hostname) !== 0 || host.hostname === 'localhost') return true;
  return allowed.some((a) => a.hostname === host.hostname && (a.port === null || a.port === host.port));
}
