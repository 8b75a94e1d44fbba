import { openStore } from '@faultline/sql';
import { CLI_USAGE, parseCliArgs } from '../config/parse-cli-args.js';
import { ConfigError, resolveReceiverConfig } from '../config/receiver-config.js';
import { startCollector } from './start-collector.js';

/**
 * The `faultline-collector` command: parse flags, open the store, serve until SIGTERM/SIGINT,
 * then stop accepting, finish in-flight requests and drain the writer before exiting.
 * Resolves with the exit code for errors found before serving.
 */
export async function runCli(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseCliArgs>;
  try {
    args = parseCliArgs(argv);
  } catch (err) {
    console.error(`faultline-collector: ${(err as Error).message}`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(CLI_USAGE);
    return 0;
  }
  try {
    // Refuse a bad or unsafe receiver setting before touching the data directory.
    resolveReceiverConfig(args.receiver);
    const store = await openStore(args.store);
    let collector: Awaited<ReturnType<typeof startCollector>>;
    try {
      collector = await startCollector({ ...args.receiver, store, writerOptions: args.writer });
    } catch (err) {
      // A refused write-ahead log must not keep the data directory locked on the way out.
      await store.close();
      throw err;
    }
    console.log(
      `faultline-collector listening on ${collector.url}/v1/traces ` +
        `(${store.mode === 'embedded' ? 'embedded chDB' : 'ClickHouse server'})`,
    );
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      console.log(`faultline-collector: ${signal}, draining`);
      await collector.close();
      await store.close();
      const { accepted } = collector.writer.stats();
      console.log(`faultline-collector: stopped; ${accepted} spans acknowledged in this run`);
      process.exit(0);
    };
    process.on('SIGTERM', () => void stop('SIGTERM'));
    process.on('SIGINT', () => void stop('SIGINT'));
    return -1;
  } catch (err) {
    const prefix = err instanceof ConfigError ? '' : 'could not start: ';
    console.error(`faultline-collector: ${prefix}${(err as Error).message}`);
    return 1;
  }
}
