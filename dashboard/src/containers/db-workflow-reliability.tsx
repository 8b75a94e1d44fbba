import Link from 'next/link';
import { type CompoundingPoint, HdxCompoundingChart } from '../components/hdx-compounding-chart';
import { predictedEndToEnd, predictedMixture, stepReliability } from '../lib/compounding';
import type { DashboardParams } from '../lib/dashboard-params';
import { formatCount, formatPercent } from '../lib/format';
import { workflowsHref } from '../lib/workflow-selection';
import { sqlConsoleHref } from '../server/sql-links';
import { loadWorkflowSummary, loadWorkflowsBySteps } from '../server/workflow-data';

/** Measured per-step reliability against end-to-end success: the compounding, by workflow length. */
export async function DBWorkflowReliability({ params }: { params: DashboardParams }) {
  const [summary, bySteps] = await Promise.all([loadWorkflowSummary(params), loadWorkflowsBySteps(params)]);
  const perStep = stepReliability(summary.steps, summary.failedSteps);
  const endToEnd = summary.workflows > 0 ? 1 - summary.failedWorkflows / summary.workflows : 1;
  const points: CompoundingPoint[] = bySteps.map((b) => ({
    steps: b.steps,
    measured: (b.succeeded / b.workflows) * 100,
    predicted: predictedEndToEnd(perStep, b.steps) * 100,
  }));
  return (
    <>
      <div className="stat-row" data-testid="workflow-stats">
        <div className="stat">
          workflows{' '}
          <Link href={workflowsHref(params, {})} title="these workflows, newest first">
            <strong data-testid="wf-count">{formatCount(summary.workflows)}</strong>
          </Link>
        </div>
        <div className="stat">
          failed{' '}
          <Link
            href={workflowsHref(params, { outcome: 'failed' })}
            title="the failed workflows, newest first"
          >
            <strong data-testid="wf-failed">{formatCount(summary.failedWorkflows)}</strong>
          </Link>
        </div>
        <div className="stat">
          per-step reliability <strong data-testid="wf-step-reliability">{formatPercent(perStep)}</strong>
        </div>
        <div className="stat">
          average steps <strong>{summary.avgSteps.toFixed(1)}</strong>
        </div>
        <div className="stat">
          predicted end-to-end{' '}
          <strong
            data-testid="wf-predicted"
            title="the mean of p^n over the workflows, n = each workflow's steps"
          >
            {formatPercent(predictedMixture(perStep, bySteps))}
          </strong>
        </div>
        <div className="stat">
          measured end-to-end <strong data-testid="wf-end-to-end">{formatPercent(endToEnd)}</strong>
        </div>
      </div>
      <section className="panel" aria-labelledby="compounding-title">
        <h2 id="compounding-title">
          End-to-end success by workflow length{' '}
          <span className="muted">
            at {formatPercent(perStep)} per step, 20 steps succeed{' '}
            {formatPercent(predictedEndToEnd(perStep, 20))} of the time
          </span>
        </h2>
        {points.length === 0 ? (
          <p className="muted">No workflows in this range.</p>
        ) : (
          <HdxCompoundingChart data={points} />
        )}
        <details>
          <summary>Rows behind this chart</summary>
          <p>
            <Link href={sqlConsoleHref('dashboard/workflows_by_steps', params, {})}>
              Open as a query in the SQL console
            </Link>
          </p>
          <table>
            <thead>
              <tr>
                <th className="num">steps</th>
                <th className="num">workflows</th>
                <th className="num">succeeded</th>
                <th className="num">measured</th>
                <th className="num">predicted</th>
              </tr>
            </thead>
            <tbody>
              {bySteps.map((b, i) => (
                <tr key={b.steps} data-testid="wf-steps-row" data-steps={b.steps}>
                  <td className="num">{b.steps}</td>
                  <td className="num">
                    <Link href={workflowsHref(params, { steps: b.steps })} data-testid="wf-steps-workflows">
                      {formatCount(b.workflows)}
                    </Link>
                  </td>
                  <td className="num">
                    <Link
                      href={workflowsHref(params, { steps: b.steps, outcome: 'succeeded' })}
                      data-testid="wf-steps-succeeded"
                    >
                      {formatCount(b.succeeded)}
                    </Link>
                  </td>
                  <td className="num">{points[i]?.measured.toFixed(1)}%</td>
                  <td className="num">{points[i]?.predicted.toFixed(1)}%</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
        <p className="muted">
          A step is a logical outbound call of the workflow's entry service, its retries included; it fails
          only when its last attempt failed. Predicted end-to-end is the mean of p^n over the workflows.
        </p>
      </section>
    </>
  );
}
