/**
 * `node --import @faultline/instrumentation/register app.js` (or `--require`). Tiny on purpose:
 * configuration comes from OTEL_* and FAULTLINE_* environment variables only.
 */
import { isMainThread } from 'node:worker_threads';
import { start } from './preload/sdk/start.js';

// Node also runs `--require` preloads inside its module-hooks worker; a second SDK there would
// register the ESM hook twice and trace the loader itself.
if (isMainThread) start();
