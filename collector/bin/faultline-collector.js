#!/usr/bin/env node
// CLI entry of @faultline/collector; the logic lives in src/server/run-cli.ts (built to dist).
import { runCli } from '../dist/index.js';

const code = await runCli(process.argv.slice(2));
// -1: serving until a signal.
if (code >= 0) process.exitCode = code;
