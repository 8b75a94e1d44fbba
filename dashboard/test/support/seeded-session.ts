import { waitForInserted } from '@faultline/collector';
import type { Page } from 'playwright-core';
import { launchChromium } from './browser';
import { type FaultlineProcess, type StartOptions, startFaultline } from './faultline-process';

/** A running `npm start` holding a test's spans, and a Chromium page to read it with. */
export interface SeededSession {
  app: FaultlineProcess;
  page: Page;
  close(): Promise<void>;
}

/**
 * What the page e2e files share: `npm start`, the file's spans sent through the real exporter and
 * stored (waitForInserted), then Chromium. `close()` stops both, whichever started.
 */
export async function startSeeded(
  send: (otlpUrl: string) => Promise<void>,
  options: StartOptions = {},
): Promise<SeededSession> {
  const app = await startFaultline(options);
  try {
    await send(app.otlpUrl);
    await waitForInserted(app.otlpUrl);
    const browser = await launchChromium();
    const page = await browser.context.newPage();
    return {
      app,
      page,
      close: async () => {
        await browser.close();
        await app.stop();
      },
    };
  } catch (err) {
    await app.stop();
    throw err;
  }
}
