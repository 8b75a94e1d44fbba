#!/usr/bin/env node
// `npx faultline <command>`: the operator's CLI. Each command lives in scripts/cli/<command>.mjs
// and prints its own --help; this file only dispatches.
import { COMMANDS, usage } from '../scripts/cli/commands.mjs';

const [name, ...args] = process.argv.slice(2);
if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
  process.stdout.write(usage());
  process.exit(name === undefined ? 2 : 0);
}
const command = COMMANDS[name];
if (!command) {
  console.error(
    `faultline: "${name}" is not a command. Commands: ${Object.keys(COMMANDS).join(', ')} (faultline --help).`,
  );
  process.exit(2);
}
const { run } = await import(command.module);
process.exitCode = await run(args);
