// `faultline start [options]`: the same process as `npm start`, with the same flags.
export async function run(args) {
  // scripts/start.mjs reads its flags from process.argv, as `node scripts/start.mjs …` passes them.
  process.argv = [process.argv[0], 'faultline start', ...args];
  await import('../start.mjs');
  return undefined;
}
