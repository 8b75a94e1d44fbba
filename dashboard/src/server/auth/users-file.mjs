import { readFileSync } from 'node:fs';
import { ConfigError } from '@faultline/collector';
import { parsePasswordHash } from './password-hash.mjs';

const NAME = /^[A-Za-z0-9._@+-]{1,64}$/;

/**
 * FAULTLINE_DASHBOARD_USERS_FILE: one `name:scrypt$…` per line, `#` comments and blank lines
 * ignored. Read once at start; a bad line fails start naming the file and line, never its hash.
 * Returns name → parsed hash.
 */
export function readUsersFile(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `FAULTLINE_DASHBOARD_USERS_FILE=${path} cannot be read (${err.code ?? err.message})`,
    );
  }
  const users = new Map();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const where = `FAULTLINE_DASHBOARD_USERS_FILE ${path}:${i + 1}`;
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon);
    if (!NAME.test(name)) {
      throw new ConfigError(`${where}: expected name:scrypt$… with a name of letters, digits and . _ @ + -`);
    }
    if (users.has(name)) throw new ConfigError(`${where}: user ${name} is listed twice`);
    try {
      users.set(name, parsePasswordHash(line.slice(colon + 1)));
    } catch (err) {
      throw new ConfigError(`${where}: the hash for ${name} ${err.message}`);
    }
  });
  if (users.size === 0) throw new ConfigError(`FAULTLINE_DASHBOARD_USERS_FILE ${path} lists no users`);
  return users;
}
