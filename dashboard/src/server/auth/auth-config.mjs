import { ConfigError, isLoopback } from '@faultline/collector';
import { secretDigest } from '@faultline/collector/secret';
import { parseAllowedHosts, parseHostHeader } from './allowed-hosts.mjs';
import { parseTrustedProxies } from './trusted-proxies.mjs';
import { readUsersFile } from './users-file.mjs';

// Who may use the dashboard, read once at start from the environment. Bound to loopback it may
// stay open (the developer default); bound to any other address it needs a sign-in (a token or a
// users file) or an authenticating proxy, else start is refused. Every value is checked here, so a
// bad one fails start with the variable and the fix, never at the first request.

const SESSION_HOURS = { fallback: 12, min: 1, max: 720 };

/** Resolves the gate's configuration; throws ConfigError (message safe to print: no secret in it). */
export function resolveAuthConfig(env, { bindHost }) {
  const token = setting(env.FAULTLINE_DASHBOARD_TOKEN);
  const usersFile = setting(env.FAULTLINE_DASHBOARD_USERS_FILE);
  if (token !== undefined && usersFile !== undefined) {
    throw new ConfigError(
      'set FAULTLINE_DASHBOARD_TOKEN or FAULTLINE_DASHBOARD_USERS_FILE, not both: one sign-in form serves one of them',
    );
  }
  let login = null;
  if (token !== undefined) {
    if (token.length < 16 || /\s/.test(token)) {
      throw new ConfigError(
        'FAULTLINE_DASHBOARD_TOKEN must be at least 16 characters with no whitespace (generate one with `openssl rand -hex 32`)',
      );
    }
    // Every instrumented service holds the ingest token; it must not also open the SQL console.
    if (token === setting(env.FAULTLINE_INGEST_TOKEN)) {
      throw new ConfigError(
        'FAULTLINE_DASHBOARD_TOKEN must differ from FAULTLINE_INGEST_TOKEN, which every instrumented service holds',
      );
    }
    login = { kind: 'token', digest: secretDigest(token) };
  } else if (usersFile !== undefined) {
    login = { kind: 'users', users: readUsersFile(usersFile), file: usersFile };
  }

  const proxiesRaw = setting(env.FAULTLINE_DASHBOARD_TRUSTED_PROXIES);
  const proxy = proxiesRaw === undefined ? null : parseTrustedProxies(proxiesRaw);

  const publicUrl = parsePublicUrl(setting(env.FAULTLINE_DASHBOARD_PUBLIC_URL));
  const allowedHosts = parseAllowedHosts(setting(env.FAULTLINE_DASHBOARD_ALLOWED_HOSTS));
  if (publicUrl !== null) allowedHosts.push({ hostname: publicUrl.hostname, port: null });

  const sessionHours = intSetting(
    env.FAULTLINE_DASHBOARD_SESSION_HOURS,
    'FAULTLINE_DASHBOARD_SESSION_HOURS',
    SESSION_HOURS,
  );
  const loopback = isLoopback(bindHost);
  if (!loopback && login === null && proxy === null) {
    throw new ConfigError(
      `refusing to serve the dashboard on ${bindHost} without authentication: anyone who can reach it could ` +
        'read every span and run SQL. Set one of: FAULTLINE_DASHBOARD_TOKEN (at least 16 characters, e.g. ' +
        '`openssl rand -hex 32`; sign in at /login), FAULTLINE_DASHBOARD_USERS_FILE (lines of ' +
        'name:scrypt$…, made with `node scripts/start.mjs --hash-password`), or FAULTLINE_DASHBOARD_TRUSTED_PROXIES ' +
        '(the address or CIDR of an authenticating proxy that sends X-Forwarded-User, e.g. oauth2-proxy). ' +
        'Or listen on loopback only: --host 127.0.0.1 (FAULTLINE_DASHBOARD_HOST).',
    );
  }
  return {
    bindHost,
    loopback,
    login,
    proxy,
    allowedHosts,
    publicOrigin: publicUrl?.origin ?? null,
    secureCookies: publicUrl?.secure ?? false,
    sessionTtlMs: sessionHours * 3_600_000,
  };
}

/** One line for the start log: the mode and the hosts answered, never a secret. */
export function describeAuth(config) {
  const modes = [];
  if (config.login?.kind === 'token') modes.push('token (sign in at /login, or Authorization: Bearer)');
  if (config.login?.kind === 'users')
    modes.push(`users file ${config.login.file} (${config.login.users.size} users, sign in at /login)`);
  if (config.proxy !== null) modes.push(`X-Forwarded-User from ${config.proxy.entries.join(', ')}`);
  if (modes.length === 0) modes.push('none (loopback only)');
  const hosts = [
    'localhost',
    'IP addresses',
    ...config.allowedHosts.map((h) => (h.port === null ? h.hostname : `${h.hostname}:${h.port}`)),
  ];
  return `${modes.join(' + ')}; hosts ${[...new Set(hosts)].join(', ')}`;
}

function setting(value) {
  return value === undefined || value === '' ? undefined : value;
}

function parsePublicUrl(raw) {
  if (raw === undefined) return null;
  let url;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  const host = url === null ? null : parseHostHeader(url.host);
  if (
    url === null ||
    host === null ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username !== '' ||
    url.password !== '' ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    throw new ConfigError(
      // Not quoted: a URL can carry user:password@.
      "FAULTLINE_DASHBOARD_PUBLIC_URL is not the dashboard's public origin: give scheme, host and port only (no user, path or query), e.g. https://faultline.example.com",
    );
  }
  return { origin: url.origin, hostname: host.hostname, secure: url.protocol === 'https:' };
}

function intSetting(raw, variable, { fallback, min, max }) {
  if (raw === undefined || raw === '') return fallback;
  const n = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new ConfigError(`${variable} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return n;
}
