import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Fixture tests load the preload the way users do, from the built package, so they must run
 * against a fresh dist. The lock keeps concurrent test runs from cleaning dist under each other.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  execFileSync(
    'flock',
    ['/tmp/faultline-instrumentation-build.lock', 'npm', 'run', 'build', '-w', '@faultline/instrumentation'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}
