// The bin entry (bin/faultline-collector.js) run against src/ instead of dist/, for tests.
import { runCli } from '../../../src/index.js';

const code = await runCli(process.argv.slice(2));
if (code >= 0) process.exitCode = code;
