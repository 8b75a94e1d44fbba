import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendAgentScenario } from '../../collector/test/agents/send-agent-scenario.mjs';
import { RUNS } from '../../instrumentation/test/fixtures/agents/scenario.cjs';
import { ARTIFACTS } from './support/browser';
import type { FaultlineProcess } from './support/faultline-process';
import { type SeededSession, startSeeded } from './support/seeded-session';

// Issue 32's Agents page over the agent scenario (16 runs of the real `ai` 5 and MCP SDKs under the
// preload, a scripted mock model, real tools: send-agent-scenario.mjs), sent to a real `npm start`
// and read in Chromium. The truth is the scenario's construction (scenario.cjs): each failed tool
// call's class, next action and verdict, written down by hand beside its run.
let session: SeededSession;
let app: FaultlineProcess;
let page: Page;

const CLASSES = ['validation', 'authentication', 'rate_limit', 'transient', 'permanent'];
const truth = RUNS.flatMap((r) =>
  r.failures.map(([tool, cls, action, verdict]) => ({ tool, cls, action, verdict })),
);
const count = (cls: string | null, verdict: string) =>
  truth.filter((t) => (cls === null || t.cls === cls) && t.verdict === verdict).length;
/** The page's compliance: right / (right + wrong), one decimal. */
const percent = (right: number, wrong: number) => `${((right / (right + wrong)) * 100).toFixed(1)}%`;

beforeAll(async () => {
  session = await startSeeded(async (otlpUrl) => {
    await sendAgentScenario({ otlpUrl, service: 'agents' });
  });
  ({ app, page } = session);
}, 180_000);

afterAll(() => session?.close());

describe('the Agents page', () => {
  it('shows per-class compliance equal to the scenario’s truth', async () => {
    await page.goto(`${app.dashboardUrl}/agents?range=1h`);
    const rows = page.getByTestId('agent-compliance-row');
    await rows.first().waitFor();
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => {
        const cell = (id: string) => tr.querySelector(`[data-testid="${id}"]`)?.textContent ?? '';
        return [tr.getAttribute('data-class'), cell('right'), cell('wrong'), cell('compliance')];
      }),
    );
    const expected = CLASSES.filter((cls) => truth.some((t) => t.cls === cls)).map((cls) => {
      const [right, wrong] = [count(cls, 'right'), count(cls, 'wrong')];
      return [cls, String(right), String(wrong), percent(right, wrong)];
    });
    expect(shown.sort()).toEqual(expected.sort());
    expect(await page.getByTestId('agent-failed-calls').textContent()).toBe(String(truth.length));
    expect(await page.getByTestId('agent-right').textContent()).toBe(String(count(null, 'right')));
    expect(await page.getByTestId('agent-wrong').textContent()).toBe(String(count(null, 'wrong')));
  });

  it('lists every judgement with its verdict, and the worst pairs by wrong actions', async () => {
    const verdicts = await page
      .getByTestId('agent-judgement')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-verdict')));
    expect(verdicts).toHaveLength(truth.length);
    for (const v of ['right', 'wrong', 'none'])
      expect(verdicts.filter((x) => x === v).length, v).toBe(count(null, v));
    // Each wrong action belongs to one agent × model × tool of the scenario: the pairs sum to it.
    const wrongByPair = await page
      .getByTestId('agent-pair')
      .evaluateAll((trs) => trs.map((tr) => Number(tr.querySelectorAll('td')[5]?.textContent)));
    expect(wrongByPair.reduce((a, b) => a + b, 0)).toBe(count(null, 'wrong'));
    const pairs = new Set(
      RUNS.flatMap((r) =>
        r.failures.filter((f) => f[3] === 'wrong').map((f) => `${r.agent} ${r.model} ${f[0]}`),
      ),
    );
    expect(wrongByPair).toHaveLength(pairs.size);
  });

  it('filters the judgements by verdict', async () => {
    await page.getByTestId('verdict-wrong').click();
    await page.waitForURL(/verdict=wrong/);
    const verdicts = await page
      .getByTestId('agent-judgement')
      .evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-verdict')));
    expect(verdicts).toEqual(Array(count(null, 'wrong')).fill('wrong'));
  });

  it('opens a judgement’s run as its request tree, the failed tool call selected', async () => {
    const link = page.getByTestId('judgement-run').first();
    const href = new URL((await link.getAttribute('href'))!, app.dashboardUrl);
    expect(href.pathname).toBe('/request');
    const [trace, span] = [href.searchParams.get('id')!, href.searchParams.get('span')!];
    expect(trace).toMatch(/^[0-9a-f]{32}$/);
    await link.click();
    await page.getByRole('tree').waitFor();
    const items = page.locator('[role="tree"] [role="treeitem"]');
    // The run: its generateText span at the root, the tool calls under it, the failed one selected.
    expect(await items.first().textContent()).toContain('ai.generateText');
    const selected = page.locator(`[role="treeitem"][data-span-id="${span}"]`);
    expect(await selected.getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('span-panel').getAttribute('data-span-id')).toBe(span);
    expect(await page.getByTestId('span-panel').textContent()).toContain('ai.toolCall');
  });

  it('fits 1280, 1440 and 1920 px: no page overflow, numbers right-aligned on one line', async () => {
    for (const width of [1280, 1440, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${app.dashboardUrl}/agents?range=1h`);
      await page.getByTestId('agent-judgements').waitFor();
      const layout = await page.evaluate(() => ({
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        numbers: [...document.querySelectorAll('td.num')].map((td) => {
          const style = getComputedStyle(td);
          return [style.textAlign, style.whiteSpace];
        }),
        // A panel's table may scroll inside it; the panel itself never pushes the page wider.
        panels: [...document.querySelectorAll('main .panel')].map(
          (p) => p.getBoundingClientRect().right <= document.documentElement.clientWidth,
        ),
      }));
      expect(layout.overflow, `${width} px`).toBe(0);
      expect(new Set(layout.numbers.map((n) => n.join(' ')))).toEqual(new Set(['right nowrap']));
      expect(layout.panels.every(Boolean), `${width} px`).toBe(true);
      await page.screenshot({ path: `${ARTIFACTS}/agents-${width}.png`, fullPage: true });
    }
  });

  it('narrows to one agent from the worst pairs, its compliance that agent’s truth', async () => {
    const link = page.getByTestId('agent-pair').first().locator('td').first().locator('a');
    const agent = (await link.textContent())!;
    await link.click();
    await page.waitForURL(/agent=/);
    await page.getByTestId('agent-compliance-row').first().waitFor();
    const mine = RUNS.filter((r) => r.agent === agent).flatMap((r) => r.failures);
    const of = (verdict: string) => mine.filter((f) => f[3] === verdict).length;
    expect(await page.getByTestId('agent-right').textContent()).toBe(String(of('right')));
    expect(await page.getByTestId('agent-wrong').textContent()).toBe(String(of('wrong')));
    expect(await page.getByTestId('agent-judgement').count()).toBe(mine.length);
  });
});
