import { readFileSync } from 'node:fs';
import { ERROR_CLASSES } from '@faultline/instrumentation';
import { isMap, isSeq, LineCounter, type Node, parseDocument } from 'yaml';
import { BURN_WINDOWS, parseSlo } from '../budget/index.js';
import { type AgentActionRule, DEFAULT_AGENT_RULE } from './agent-rules.js';
import { BURN_ALERT_NAME, BURN_RULES, type BurnRule, MAX_MIN_EVENTS, type Severity } from './burn-rules.js';
import {
  CLASS_RATE_ALERT_NAME,
  type ClassRateRule,
  type ClassRule,
  NEW_CODE_ALERT_NAME,
  type NewCodeRule,
} from './class-rules.js';

/** What FAULTLINE_ALERT_RULES holds, validated. */
export interface AlertRules {
  /** Per-service SLO targets (percent). */
  sloByService: Record<string, number>;
  /** The workbook's rules unless the file lists `kind: burn_rate` rules of its own. */
  burnRules: readonly BurnRule[];
  classRules: ClassRule[];
  /** DEFAULT_AGENT_RULE unless the file lists `kind: agent_wrong_actions` rules of its own. */
  agentRules: readonly AgentActionRule[];
}

export const DEFAULT_ALERT_RULES: AlertRules = {
  sloByService: {},
  burnRules: BURN_RULES,
  classRules: [],
  agentRules: [DEFAULT_AGENT_RULE],
};

const NAME = 'FAULTLINE_ALERT_RULES';
const EXAMPLE = `services:
  payments: { slo: 99.9 }
rules:
  - { kind: class_rate, class: rate_limit, source: sdk, per_minute: 50 }
  - { kind: new_code, severity: ticket }`;

type Path = (string | number)[];

const show = (path: Path) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');

/**
 * Reads FAULTLINE_ALERT_RULES: YAML or JSON (a JSON document is YAML 1.2 too, so one parser reads
 * both and knows every node's line). A bad file throws a RangeError naming the file, the line, what
 * is wrong and the fix.
 *
 * ```yaml
 * services:            # per-service SLO overrides (percent)
 *   payments: { slo: 99.9 }
 * rules:               # optional; without burn_rate entries the SRE-workbook rules apply
 *   - { kind: burn_rate, severity: page, long: 1h, short: 5m, factor: 14.4, min_events: 500 }
 *   - { kind: class_rate, class: rate_limit, source: sdk, per_minute: 50, window_minutes: 5 }
 *   - { kind: new_code, baseline_days: 7, window_minutes: 60, severity: ticket }
 *   - { kind: agent_wrong_actions, target: 0.9, factor: 2, long: 1h, short: 5m, min_events: 10 }
 * ```
 */
export function parseAlertRules(text: string, file: string): AlertRules {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const where = (offset: number | undefined) =>
    offset === undefined ? file : `${file} line ${lines.linePos(offset).line}`;
  const first = doc.errors[0];
  if (first)
    throw new RangeError(
      `${NAME}=${where(first.pos[0])}: not valid YAML or JSON (${first.message.split('\n')[0]}): fix the syntax; a rules file looks like\n${EXAMPLE}`,
    );
  /** The line of the deepest node on the path that exists (the key itself when the value is missing). */
  function lineOf(path: Path): number | undefined {
    for (let n = path.length; n >= 0; n--) {
      const node = (n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true)) as Node | null | undefined;
      if (node && typeof node === 'object' && 'range' in node && node.range) return node.range[0];
    }
    return undefined;
  }
  const fail = (path: Path, what: string, fix: string): never => {
    throw new RangeError(`${NAME}=${where(lineOf(path))}: ${show(path) || 'the document'} ${what}: ${fix}`);
  };

  if (doc.contents === null) return DEFAULT_ALERT_RULES;
  if (!isMap(doc.contents))
    fail([], 'is not a mapping', `give a mapping with "services" and/or "rules", e.g.\n${EXAMPLE}`);
  const root = doc.toJS() as Record<string, unknown>;
  for (const key of Object.keys(root))
    if (key !== 'services' && key !== 'rules')
      fail([key], 'is not a known key', 'the top-level keys are "services" (SLO per service) and "rules".');

  const sloByService: Record<string, number> = {};
  if (root.services !== undefined && root.services !== null) {
    if (!isMap(doc.get('services', true)))
      fail(
        ['services'],
        'is not a mapping',
        'give one entry per service, e.g. services: { payments: { slo: 99.9 } }.',
      );
    for (const [service, rule] of Object.entries(root.services as Record<string, unknown>)) {
      const path = ['services', service];
      if (typeof rule !== 'object' || rule === null || Array.isArray(rule))
        fail(path, 'is not a mapping', `give the service's SLO, e.g. ${service}: { slo: 99.9 }.`);
      for (const k of Object.keys(rule as object))
        if (k !== 'slo') fail([...path, k], 'is not a known key', 'a service entry has only "slo".');
      const slo = (rule as { slo?: unknown }).slo;
      try {
        sloByService[service] = parseSlo(String(slo), `${show([...path, 'slo'])}`);
      } catch (err) {
        fail([...path, 'slo'], `is ${JSON.stringify(slo ?? null)}`, (err as Error).message);
      }
    }
  }

  const burnRules: BurnRule[] = [];
  const classRules: (ClassRateRule | NewCodeRule)[] = [];
  const agentRules: AgentActionRule[] = [];
  if (root.rules !== undefined && root.rules !== null) {
    if (!isSeq(doc.get('rules', true)))
      fail(['rules'], 'is not a list', 'give a list of rules, each with a "kind", e.g.\n' + EXAMPLE);
    (root.rules as unknown[]).forEach((raw, i) => {
      const path: Path = ['rules', i];
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
        fail(
          path,
          'is not a mapping',
          'give a rule such as { kind: class_rate, class: rate_limit, source: sdk, per_minute: 50 }.',
        );
      const r = raw as Record<string, unknown>;
      const allow = (keys: string[]) => {
        for (const k of Object.keys(r))
          if (!keys.includes(k))
            fail(
              [...path, k],
              `is not a key of a ${String(r.kind)} rule`,
              `its keys are ${keys.join(', ')}.`,
            );
      };
      const num = (key: string, dflt: number | undefined, min: number, max: number, fix: string): number => {
        const v = r[key];
        if (v === undefined && dflt !== undefined) return dflt;
        if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max)
          fail([...path, key], v === undefined ? 'is missing' : `is ${JSON.stringify(v)}`, fix);
        return v as number;
      };
      const severity = (dflt: Severity): Severity => {
        const v = r.severity ?? dflt;
        if (v !== 'page' && v !== 'ticket')
          fail([...path, 'severity'], `is ${JSON.stringify(v)}`, 'give page or ticket.');
        return v as Severity;
      };
      const service = (): string | null => {
        const v = r.service;
        if (v === undefined || v === null) return null;
        if (typeof v !== 'string' || v === '')
          fail(
            [...path, 'service'],
            `is ${JSON.stringify(v)}`,
            'give a service name, or leave it out for every service.',
          );
        return v as string;
      };
      const alertname = (dflt: string): string => {
        const v = r.alertname ?? dflt;
        if (typeof v !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(v))
          fail(
            [...path, 'alertname'],
            `is ${JSON.stringify(v)}`,
            'give a name of letters, digits and _, e.g. SdkThrottling.',
          );
        return v as string;
      };
      switch (r.kind) {
        case 'burn_rate': {
          allow(['kind', 'alertname', 'severity', 'long', 'short', 'factor', 'min_events']);
          const windows = BURN_WINDOWS.map((w) => w.key);
          for (const k of ['long', 'short'])
            if (!windows.includes(r[k] as never))
              fail(
                [...path, k],
                r[k] === undefined ? 'is missing' : `is ${JSON.stringify(r[k])}`,
                `give one of ${windows.join(', ')}.`,
              );
          const minEventsFix = `give a whole number of events from 1 to ${MAX_MIN_EVENTS} that each window must hold before the rule fires, or leave it out for FAULTLINE_ALERT_MIN_EVENTS.`;
          const minEvents =
            r.min_events === undefined
              ? undefined
              : num('min_events', undefined, 1, MAX_MIN_EVENTS, minEventsFix);
          if (minEvents !== undefined && !Number.isInteger(minEvents))
            fail([...path, 'min_events'], `is ${minEvents}`, minEventsFix);
          burnRules.push({
            alertname: alertname(BURN_ALERT_NAME),
            severity: severity('page'),
            long: r.long as BurnRule['long'],
            short: r.short as BurnRule['short'],
            factor: num('factor', undefined, 0.001, 1e6, 'give the burn-rate factor, e.g. factor: 14.4.'),
            ...(minEvents === undefined ? {} : { minEvents }),
          });
          return;
        }
        case 'class_rate': {
          allow([
            'kind',
            'alertname',
            'severity',
            'class',
            'source',
            'per_minute',
            'window_minutes',
            'service',
          ]);
          if (!ERROR_CLASSES.includes(r.class as never))
            fail(
              [...path, 'class'],
              r.class === undefined ? 'is missing' : `is ${JSON.stringify(r.class)}`,
              `give one of ${ERROR_CLASSES.join(', ')}.`,
            );
          if (typeof r.source !== 'string' || !/^[a-z][a-z0-9_.-]*$/.test(r.source))
            fail(
              [...path, 'source'],
              r.source === undefined ? 'is missing' : `is ${JSON.stringify(r.source)}`,
              'give the failing source, e.g. sdk, http, db or rpc.',
            );
          classRules.push({
            kind: 'class_rate',
            alertname: alertname(CLASS_RATE_ALERT_NAME),
            severity: severity('page'),
            class: r.class as string,
            source: r.source as string,
            perMinute: num(
              'per_minute',
              undefined,
              0,
              1e9,
              'give the failures per minute to alert above, e.g. per_minute: 50.',
            ),
            windowMinutes: num(
              'window_minutes',
              5,
              1,
              1440,
              'give whole minutes from 1 to 1440 (default 5).',
            ),
            service: service(),
          });
          if (!Number.isInteger(classRules[classRules.length - 1]?.windowMinutes))
            fail(
              [...path, 'window_minutes'],
              `is ${JSON.stringify(r.window_minutes)}`,
              'give whole minutes from 1 to 1440 (default 5).',
            );
          return;
        }
        case 'new_code': {
          allow(['kind', 'alertname', 'severity', 'baseline_days', 'window_minutes', 'service']);
          const rule: ClassRule = {
            kind: 'new_code',
            alertname: alertname(NEW_CODE_ALERT_NAME),
            severity: severity('ticket'),
            baselineDays: num('baseline_days', 7, 1, 365, 'give whole days from 1 to 365 (default 7).'),
            windowMinutes: num(
              'window_minutes',
              60,
              1,
              1440,
              'give whole minutes from 1 to 1440 (default 60).',
            ),
            service: service(),
          };
          if (!Number.isInteger(rule.baselineDays))
            fail(
              [...path, 'baseline_days'],
              `is ${rule.baselineDays}`,
              'give whole days from 1 to 365 (default 7).',
            );
          if (!Number.isInteger(rule.windowMinutes))
            fail(
              [...path, 'window_minutes'],
              `is ${rule.windowMinutes}`,
              'give whole minutes from 1 to 1440 (default 60).',
            );
          classRules.push(rule);
          return;
        }
        case 'agent_wrong_actions': {
          allow([
            'kind',
            'alertname',
            'severity',
            'target',
            'factor',
            'long',
            'short',
            'min_events',
            'service',
          ]);
          const d = DEFAULT_AGENT_RULE;
          const windows = BURN_WINDOWS.map((w) => w.key);
          const window = (k: 'long' | 'short') => {
            const v = r[k] ?? d[k];
            if (!windows.includes(v as never))
              fail([...path, k], `is ${JSON.stringify(v)}`, `give one of ${windows.join(', ')}.`);
            return v as AgentActionRule['long'];
          };
          const minEventsFix = `give a whole number of judged next actions from 1 to ${MAX_MIN_EVENTS} that each window must hold before the rule fires (default ${d.minEvents}).`;
          const minEvents = num('min_events', d.minEvents, 1, MAX_MIN_EVENTS, minEventsFix);
          if (!Number.isInteger(minEvents)) fail([...path, 'min_events'], `is ${minEvents}`, minEventsFix);
          agentRules.push({
            kind: 'agent_wrong_actions',
            alertname: alertname(d.alertname),
            severity: severity(d.severity),
            target: num(
              'target',
              d.target,
              0.001,
              0.999,
              `give the share of judged next actions that should be right, above 0 and below 1 (default ${d.target}).`,
            ),
            factor: num(
              'factor',
              d.factor,
              0.001,
              1e6,
              `give the burn both windows must reach, e.g. factor: ${d.factor} (default).`,
            ),
            long: window('long'),
            short: window('short'),
            minEvents,
            service: service(),
          });
          return;
        }
        default:
          fail(
            [...path, 'kind'],
            r.kind === undefined ? 'is missing' : `is ${JSON.stringify(r.kind)}`,
            'give burn_rate, class_rate, new_code or agent_wrong_actions.',
          );
      }
    });
  }
  return {
    sloByService,
    burnRules: burnRules.length > 0 ? burnRules : BURN_RULES,
    classRules,
    agentRules: agentRules.length > 0 ? agentRules : DEFAULT_ALERT_RULES.agentRules,
  };
}

/** Reads and validates the FAULTLINE_ALERT_RULES file. */
export function readAlertRulesFile(path: string): AlertRules {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new RangeError(
      `${NAME}=${path} cannot be read (${(err as Error).message}): give the path of a YAML or JSON rules file.`,
    );
  }
  return parseAlertRules(text, path);
}
