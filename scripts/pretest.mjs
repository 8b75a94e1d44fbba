// `npm test`'s pretest: the system packages the tests drive (Debian's Chromium for the browser
// tests) are installed when missing, saying so, so `npm test` works alone on a fresh machine.
// PostgreSQL, MariaDB and Redis are services the machine runs; this only checks they answer, and
// says how to start one that does not (the tests then fail, never skip).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';

const PACKAGES = [
  { name: 'chromium', binary: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
  // The burn-rate alert tests deliver to a real Alertmanager on a loopback port.
  { name: 'prometheus-alertmanager', binary: '/usr/bin/prometheus-alertmanager' },
  // `npm run rules` output is checked with `promtool check rules` and `promtool test rules`.
  { name: 'prometheus', binary: '/usr/bin/promtool' },
];
const SERVICES = [
  { name: 'PostgreSQL', port: 5432 },
  { name: 'MariaDB', port: 3306 },
  { name: 'Redis', port: 6379 },
];

const missing = PACKAGES.filter((p) => !existsSync(p.binary));
if (missing.length > 0) {
  const names = missing.map((p) => p.name);
  if (process.getuid?.() !== 0) {
    console.error(
      `pretest: ${names.join(', ')} missing; the browser tests need it. Install it with: sudo apt-get install -y ${names.join(' ')}`,
    );
    process.exit(1);
  }
  console.log(
    `pretest: installing ${names.join(', ')} from Debian (apt-get update && apt-get install -y ${names.join(' ')})`,
  );
  execFileSync('apt-get', ['update'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', ...names], {
    stdio: 'inherit',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

function answers(port) {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, timeout: 2000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

for (const s of SERVICES) {
  if (!(await answers(s.port)))
    console.error(
      `pretest: ${s.name} does not answer on 127.0.0.1:${s.port}; the tests that need it will fail until it runs.`,
    );
}
