import type { Store } from '@faultline/sql';

/** What a rule beside the burn rules (class rate, new code, agent actions) reads and links with. */
export interface ClassRuleContext {
  store: Store;
  nowMs: number;
  /** How long Alertmanager keeps a firing notice without a re-send. */
  holdMs: number;
  /** The dashboard's page (default the Overview) for the service over [fromS, toS]. */
  link: (service: string, fromS: number, toS: number, path?: string) => string;
}
