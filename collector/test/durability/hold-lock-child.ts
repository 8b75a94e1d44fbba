// Takes a directory lock in a separate process, for the lock tests (`node --import tsx`):
//   <dir> hold   lock, print `locked <pid>`, wait to be killed
//   <dir> exit   lock, then process.exit(0) without releasing: the exit hook must remove the file
import { acquireDirectoryLock } from '@faultline/sql';

const [dir, mode] = process.argv.slice(2) as [string, string];
acquireDirectoryLock(dir, { what: 'the test directory', fix: 'use another one' });
console.log(`locked ${process.pid}`);
if (mode === 'exit') process.exit(0);
setInterval(() => {}, 1_000);
