import { type SilenceRow, SilencesPanel } from '../components/silences-panel';
import { FAILURE_CLASSES } from '../lib/failure-classes';
import { formatTime } from '../lib/format';
import { loadAlertConfig } from '../server/alert-data';
import { displayZone } from '../server/display-zone';
import { loadServiceVerdicts } from '../server/service-verdicts';
import { listSilences } from '../server/silences';

const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * Silences: those in force or pending and those that ended in the last day, a form to add one
 * (by service, class or alert name, for a while or until a time, with who and why) and a button to
 * end one early. Delivery honours them at the next evaluation; Alertmanager gets them mirrored.
 */
export async function DBSilences() {
  const loaded = await loadAlertConfig();
  const [silences, zone, verdicts] = await Promise.all([
    listSilences(),
    displayZone(),
    loadServiceVerdicts().catch(() => null),
  ]);
  const alertnames = loaded.config
    ? [...new Set([...loaded.config.burnRules, ...loaded.config.classRules].map((r) => r.alertname))].sort()
    : [];
  const rows: SilenceRow[] = silences.map((s) => ({
    id: s.id,
    service: s.service,
    class: s.class,
    alertname: s.alertname,
    starts: formatTime(seconds(s.startsAtMs), zone),
    ends: formatTime(seconds(s.endsAtMs), zone),
    author: s.author,
    reason: s.reason,
    status: s.status,
    expiredBy: s.expiredBy,
    mirror: loaded.config?.alertmanagerUrl
      ? s.mirrorError
        ? `not mirrored yet: ${s.mirrorError}`
        : s.alertmanagerState || 'pending'
      : '',
  }));
  return (
    <SilencesPanel
      silences={rows}
      services={(verdicts ?? []).map((v) => v.service)}
      classes={[...FAILURE_CLASSES]}
      alertnames={alertnames}
      zone={zone}
      mirrored={Boolean(loaded.config?.alertmanagerUrl)}
    />
  );
}
