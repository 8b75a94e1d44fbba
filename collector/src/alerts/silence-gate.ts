import type { Store } from '@faultline/sql';
import type { AlertNotice, DeliveryOutcome } from './alert-types.js';
import type { Silence } from './silence-book.js';
import { silenceMatches } from './silence-input.js';

export interface SilenceGateOptions {
  store: Store;
  /** Records the withheld notice as the webhook's delivery row (state 'silenced'). */
  record: (o: DeliveryOutcome) => Promise<void>;
}

export interface Transitions {
  fired: readonly AlertNotice[];
  resolved: readonly AlertNotice[];
  /** Every alert firing after this evaluation (new and re-sent). */
  firing: readonly AlertNotice[];
  /** Silences as read this evaluation. */
  silences: readonly Silence[];
  nowMs: number;
}

export interface SilenceGate {
  /** At start: the alerts, firing now, whose webhook notice a silence withheld before a restart. */
  load(firing: ReadonlySet<string>): Promise<void>;
  /**
   * The webhook's transitions: a firing alert a silence matches is withheld (and recorded so);
   * once none matches and it still fires, its firing notice goes out; an alert that resolves
   * while withheld was never announced, so its resolve is not sent either.
   */
  webhook(t: Transitions): Promise<AlertNotice[]>;
  /**
   * What Alertmanager gets: everything, since the silence mirrored there mutes its notifications
   * and shows why, except alerts a silence matches that Alertmanager does not hold yet.
   */
  alertmanager(notices: readonly AlertNotice[], silences: readonly Silence[]): AlertNotice[];
}

type Row = Record<string, unknown>;

const matchingAll = (n: AlertNotice, silences: readonly Silence[]) =>
  silences.filter(
    (s) =>
      s.status === 'active' &&
      silenceMatches(s, { service: n.service, class: n.class, alertname: n.alertname }),
  );
const matching = (n: AlertNotice, silences: readonly Silence[]) => matchingAll(n, silences)[0];

export function createSilenceGate(o: SilenceGateOptions): SilenceGate {
  const withheld = new Set<string>();
  return {
    async load(firing) {
      const { rows } = await o.store.runNamed<Row>('alerts/alert_withheld');
      for (const r of rows) if (firing.has(String(r.alert_key))) withheld.add(String(r.alert_key));
    },
    async webhook({ fired, resolved, firing, silences, nowMs }) {
      const out: AlertNotice[] = [];
      for (const n of fired) {
        const s = matching(n, silences);
        if (!s) {
          out.push(n);
          continue;
        }
        withheld.add(n.key);
        await o.record({
          receiver: 'webhook',
          key: n.key,
          status: 'silenced',
          ok: true,
          attempts: 0,
          httpStatus: 0,
          error: `silenced by ${s.id} until ${new Date(s.endsAtMs).toISOString()} (${s.author}: ${s.reason})`,
          atMs: nowMs,
        });
      }
      for (const n of resolved) {
        if (withheld.delete(n.key)) continue;
        out.push(n);
      }
      for (const n of firing) {
        if (!withheld.has(n.key) || matching(n, silences)) continue;
        withheld.delete(n.key);
        out.push(n);
      }
      return out;
    },
    alertmanager(notices, silences) {
      return notices.filter((n) => {
        const ms = matchingAll(n, silences);
        return ms.length === 0 || ms.some((s) => s.alertmanagerState === 'active');
      });
    },
  };
}
