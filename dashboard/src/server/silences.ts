import type { Silence, SilenceBook } from '@faultline/collector';
import { collectorModule } from './collector-module';
import { getStore } from './store';

// One book per process, on globalThis like the store: Next.js may load this module more than once,
// and the book serializes its writes, so two copies could give one silence's changes one revision.
const KEY = Symbol.for('faultline.dashboard.silence-book');

/**
 * The silences the alerts honour, read and written in process through the collector's own book
 * (alert_silences in ClickHouse, mirrored to FAULTLINE_ALERTMANAGER_URL when set): the evaluator
 * reads them back at each evaluation, wherever it runs.
 */
export async function silenceBook(): Promise<SilenceBook> {
  const g = globalThis as { [KEY]?: Promise<SilenceBook> };
  g[KEY] ??= (async () => {
    const { createSilenceBook, resolveAlertConfig } = await collectorModule();
    let alertmanagerUrl: string | null = null;
    try {
      alertmanagerUrl = resolveAlertConfig(process.env).alertmanagerUrl;
    } catch {
      // Invalid alert settings evaluate no alert (the Alerts page says why); silences still keep.
    }
    return createSilenceBook({ store: await getStore(), alertmanagerUrl });
  })();
  return g[KEY];
}

/** How far back the page lists silences that ended: a day of recent history beside those in force. */
export const SILENCE_HISTORY_MS = 86_400_000;

export async function listSilences(nowMs: number = Date.now()): Promise<Silence[]> {
  return (await silenceBook()).list(nowMs - SILENCE_HISTORY_MS);
}
