import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

export const ARTIFACTS = resolve(import.meta.dirname, '../../test-artifacts');

/**
 * Debian's Chromium, never a downloaded browser, with a fresh profile (user data dir) per run;
 * `timezoneId` and `locale` stand for a reader elsewhere (the time zone tests).
 */
export async function launchChromium(
  options: { timezoneId?: string; locale?: string } = {},
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'faultline-chromium-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  // Playwright passes --headless and --user-data-dir itself (headless: true, the profile argument).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 1000 },
    ...options,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
