import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store, TraceRow } from '@faultline/sql';
import { insertBatch, openStore, serializeRows } from '@faultline/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateTime64, hexId, makeRow } from '../../../sql/test/support/trace-row-fixture.js';
import { AGENT_ALERT_NAME, DEFAULT_AGENT_RULE } from '../../src/alerts/agent-rules.js';
import { resolveAlertConfig } from '../../src/alerts/alert-config.js';
import { createAlertEvaluator } from '../../src/alerts/alert-evaluator.js';
import { parseAlertRules } from '../../src/alerts/alert-rules-file.js';
import type { AlertNotice } from '../../src/alerts/alert-types.js';
import { startReceiver } from './receivers.js';

const MIN = 60_000;
const T0 = Math.floor(Date.now() / MIN) * MIN;

type Failure = { class: string; code: string; retryAfter?: number };
/** One AI SDK tool call span (ai.toolCall) of a run, as the preload exports it. */
function toolCall(
  service: string,
  agent: string,
  trace: string,
  atMs: number,
  tool: string,
  failure: Failure | null,
): TraceRow {
  return makeRow({
    Timestamp: dateTime64(atMs),
    TraceId: trace,
    SpanId: hexId(8),
    SpanName: 'ai.toolCall',
    SpanKind: 'Internal',
    ServiceName: service,
    SpanAttributes: {
      'ai.operationId': 'ai.toolCall',
      'ai.toolCall.name': tool,
      'ai.toolCall.args': '{"id":7}',
      'ai.telemetry.functionId': agent,
      ...(failure && {
        'faultline.class': failure.class,
        'faultline.source': 'tool',
        'faultline.code': failure.code,
        'faultline.retryable': String(failure.class === 'rate_limit' || failure.class === 'transient'),
        ...(failure.retryAfter !== undefined && { 'faultline.retry_after': String(failure.retryAfter) }),
      }),
    },
    Duration: 50_000_000,
    StatusCode: failure ? 'Error' : 'Unset',
  });
}

/**
 * A run: a failed call, then (after `thenMs` from its end, or never) the same call again, which
 * succeeds. What the agent did next is known by construction:
 *  - rate_limit with retry_after 2 s, repeated 100 ms later: a repeat before the wait, wrong;
 *  - rate_limit with retry_after 1 s, repeated 1.5 s later: the wait covered, right;
 *  - transient, then nothing: giving up on a transient failure, wrong;
 *  - permanent, repeated as sent: wrong.
 */
function run(service: string, agent: string, atMs: number, failure: Failure, thenMs: number | null) {
  const trace = hexId(16);
  const rows = [toolCall(service, agent, trace, atMs, 'get_report', failure)];
  if (thenMs !== null) rows.push(toolCall(service, agent, trace, atMs + 50 + thenMs, 'get_report', null));
  return rows;
}

const RATE_LIMIT_2S = { class: 'rate_limit', code: '429', retryAfter: 2 };
const RATE_LIMIT_1S = { class: 'rate_limit', code: '429', retryAfter: 1 };

/**
 * In the 5 minutes before T0 (so in both windows of the default rule: 1 h and 5 m):
 *  agents / pushy-agent   12 runs, 12 wrong of 12 judged: 100% wrong, burn 10 at the 0.9 target → fires
 *  agents / careful-agent 12 right + 1 wrong of 13: 7.7% wrong, burn 0.77 → healthy, no alert
 *  agents / thin-agent    4 wrong of 4: burn 10, but 4 judged actions < the 10 each window must hold
 *  muted / muted-agent    12 permanent failures repeated as sent, 12 wrong: fires, but a silence on
 *                         service muted withholds its notice
 */
function scenario(): TraceRow[] {
  const rows: TraceRow[] = [];
  const at = (i: number) => T0 - 4 * MIN + i * 5_000;
  for (let i = 0; i < 12; i++) {
    rows.push(...run('agents', 'pushy-agent', at(i), RATE_LIMIT_2S, 100));
    rows.push(...run('agents', 'careful-agent', at(i) + 1_000, RATE_LIMIT_1S, 1_500));
    rows.push(...run('muted', 'muted-agent', at(i) + 2_000, { class: 'permanent', code: '404' }, 100));
  }
  rows.push(...run('agents', 'careful-agent', at(12), RATE_LIMIT_2S, 100));
  for (let i = 0; i < 4; i++)
    rows.push(...run('agents', 'thin-agent', at(i) + 3_000, { class: 'transient', code: '503' }, null));
  return rows;
}

let dir: string;
let store: Store;
let hook: Awaited<ReturnType<typeof startReceiver>>;
let clock = T0 + 1_000;

const delivered = (status: string) =>
  hook.bodies
    .map((b) => b.body as AlertNotice & { labels: Record<string, string> })
    .filter((n) => n.alertname === AGENT_ALERT_NAME && n.status === status);

function evaluator() {
  const config = resolveAlertConfig(
    { FAULTLINE_ALERT_INTERVAL_S: '1' },
    { webhookUrl: hook.url, dashboardUrl: 'http://dash.test' },
  );
  return createAlertEvaluator({ store, config, now: () => clock, post: { baseDelayMs: 20 } });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'faultline-agent-alerts-'));
  store = await openStore({ dataDir: join(dir, 'data') });
  await insertBatch(store.client, serializeRows(scenario()));
  hook = await startReceiver(() => ({ status: 200 }));
});

afterAll(async () => {
  await hook?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the wrong-action burn alert on agents' next actions", () => {
  const e = () => shared;
  let shared: ReturnType<typeof evaluator>;

  it('fires for the agent whose next actions burn, not for a healthy one or one with too few', async () => {
    shared = evaluator();
    await shared.silences.create({
      service: 'muted',
      class: '',
      alertname: AGENT_ALERT_NAME,
      startsAtMs: clock - 1_000,
      endsAtMs: clock + 3_600_000,
      author: 'ana',
      reason: 'the muted agent is being retrained',
    });
    const out = await e().evaluate();
    await e().idle();
    // Both burning agents fire (the evaluator's state)...
    expect(
      out
        .filter((n) => n.alertname === AGENT_ALERT_NAME)
        .map((n) => `${n.service} ${n.labels?.agent} ${n.status}`)
        .sort(),
    ).toEqual(['agents pushy-agent firing', 'muted muted-agent firing']);
    // ...and only the unsilenced one reaches the webhook.
    const fired = delivered('firing');
    expect(fired.map((n) => `${n.service} ${n.labels.agent}`)).toEqual(['agents pushy-agent']);
    const n = fired[0]!;
    expect(n.severity).toBe(DEFAULT_AGENT_RULE.severity);
    expect(n.class).toBe('rate_limit');
    expect(n.labels).toEqual({ agent: 'pushy-agent' });
    const burn = (n as unknown as { burnRates: Record<string, number> }).burnRates;
    expect(burn['1h']).toBeCloseTo(10, 6);
    expect(burn['5m']).toBeCloseTo(10, 6);
    expect(n.window).toEqual({ long: '1h', short: '5m', factor: DEFAULT_AGENT_RULE.factor });
    expect(n.measure).toEqual({ value: 1, threshold: expect.closeTo(0.2, 6), unit: 'wrong actions' });
    expect(n.summary).toBe(
      'agents: agent pushy-agent took the wrong next action after 12 of 12 judged failed tool calls over 1h (10.0× the 10% allowed, 10.0× over 5m), most after rate_limit',
    );
    expect(n.dashboardUrl).toMatch(/^http:\/\/dash\.test\/agents\?service=agents&from=\d+&to=\d+/);
  });

  it('records the silenced notice as withheld', async () => {
    const { rows } = await store.runNamed<Record<string, unknown>>('alerts/alert_deliveries', { limit: 50 });
    const muted = rows.filter((r) => String(r.alert_key).startsWith(`${AGENT_ALERT_NAME}|muted|`));
    expect(muted.map((r) => [r.receiver, r.state])).toEqual([['webhook', 'silenced']]);
    expect(String(muted[0]!.error)).toContain('the muted agent is being retrained');
  });

  it('re-sends while it holds, and resolves as stale once the service stops sending', async () => {
    clock += 30_000;
    await e().evaluate();
    await e().idle();
    expect(delivered('resolved')).toEqual([]);
    // The last run ended in the minute before T0: 11 minutes on, past the default 600 s.
    clock = T0 + 11 * MIN;
    await e().evaluate();
    await e().idle();
    const resolved = delivered('resolved') as (AlertNotice & { stale?: boolean; reason?: string })[];
    expect(resolved.map((r) => `${r.service} ${r.labels?.agent} ${r.stale}`)).toEqual([
      'agents pushy-agent true',
    ]);
    expect(resolved[0]!.reason).toMatch(/^no data since /);
  });
});

describe('the rule in FAULTLINE_ALERT_RULES', () => {
  it('applies the default rule unless the file lists its own, whose threshold it takes', () => {
    expect(parseAlertRules('services: {}\n', 'rules.yaml').agentRules).toEqual([DEFAULT_AGENT_RULE]);
    const own = parseAlertRules(
      'rules:\n  - { kind: agent_wrong_actions, target: 0.8, factor: 1, min_events: 3, severity: ticket, service: agents }\n',
      'rules.yaml',
    ).agentRules;
    expect(own).toEqual([
      { ...DEFAULT_AGENT_RULE, target: 0.8, factor: 1, minEvents: 3, severity: 'ticket', service: 'agents' },
    ]);
    expect(() =>
      parseAlertRules('rules:\n  - { kind: agent_wrong_actions, target: 1.5 }\n', 'rules.yaml'),
    ).toThrow(/target/);
  });

  it('fires on the thin agent once the file lowers the event minimum', async () => {
    writeFileSync(
      join(dir, 'rules.yaml'),
      'rules:\n  - { kind: agent_wrong_actions, min_events: 4, service: agents }\n',
    );
    clock = T0 + 1_000;
    const config = resolveAlertConfig(
      { FAULTLINE_ALERT_INTERVAL_S: '1', FAULTLINE_ALERT_RULES: join(dir, 'rules.yaml') },
      { dashboardUrl: 'http://dash.test' },
    );
    const fresh = createAlertEvaluator({ store, config, now: () => clock });
    const out = await fresh.evaluate();
    expect(
      out
        .filter((n) => n.alertname === AGENT_ALERT_NAME && n.status === 'firing')
        .map((n) => `${n.labels?.agent} ${n.class}`)
        .sort(),
    ).toEqual(['pushy-agent rate_limit', 'thin-agent transient']);
  });
});
