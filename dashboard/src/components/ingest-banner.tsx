import type { IngestHealth as Health } from '@faultline/collector';
import { formatCount } from '../lib/format';
import { ingestProblems, loadIngestHealth } from '../server/ingest-health';

const time = (ms: number) => `${new Date(ms).toISOString().slice(11, 19)} UTC`;

function seconds(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}

/** What each refusal status means for the sender, for the statuses that occurred. */
const STATUS_HINTS: Record<string, string> = {
  '400': 'malformed OTLP: fix the sender',
  '401': 'missing or wrong bearer token: check FAULTLINE_INGEST_TOKEN on both sides',
  '413': 'body too large: lower the exporter batch size or raise FAULTLINE_MAX_BODY_BYTES',
  '415': 'unsupported Content-Type: send application/x-protobuf or application/json',
  '429': 'collector saturated: exporters retry, and drop what they cannot resend',
  '503': 'could not be stored or collector stopping: exporters retry later',
};

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

function refusedText(h: Health): string {
  const parts = Object.entries(h.refused.byStatus).map(
    ([status, n]) =>
      `${plural(n, 'request', 'requests')} answered ${status}${STATUS_HINTS[status] ? ` (${STATUS_HINTS[status]})` : ''}`,
  );
  if (h.refused.invalidSpans > 0)
    parts.push(
      `${plural(h.refused.invalidSpans, 'malformed span', 'malformed spans')} dropped from accepted requests (fix the sender)`,
    );
  const last = h.refused.lastAt === null ? '' : `, last at ${time(h.refused.lastAt)}`;
  return `Since ${time(h.startedAt)}${last}: ${parts.join('; ')}. ${plural(h.refused.spans, 'span', 'spans')} refused in all.`;
}

/** The banner itself, from a health snapshot; nothing when ingest is healthy. */
export function IngestBannerView({ health, now }: { health: Health | null; now: number }) {
  if (!health) return null;
  const problems = ingestProblems(health, now);
  if (!problems.unstored && !problems.refused && !problems.quarantined) return null;
  const e = health.insertErrors;
  const q = health.quarantine;
  return (
    <div className="error-box" role="alert" data-testid="ingest-banner">
      {problems.unstored && (
        <p data-testid="ingest-banner-unstored">
          <strong>
            {formatCount(health.pending)} accepted spans are not stored yet
            {health.oldestPendingAt !== null &&
              ` (the oldest waits ${seconds(now - health.oldestPendingAt)})`}
          </strong>
          : pages and SQL do not count them.
          {e.lastMessage !== null &&
            e.lastAt !== null &&
            ` Last insert error at ${time(e.lastAt)} (${formatCount(e.count)} failed attempts): ${e.lastMessage}.`}{' '}
          {health.walError !== null &&
            ` The write-ahead log cannot seal ${plural(health.walError.spans, 'span', 'spans')} since ${time(health.walError.since)} (${health.walError.message}): make its directory writable again; they are sealed and inserted as soon as it is.`}{' '}
          They are safe on disk in <code>{health.walDir}</code> and are inserted, in order, once ClickHouse
          takes inserts again: check that it is up and has disk space (collector log, GET /healthz).
        </p>
      )}
      {problems.quarantined && (
        <p data-testid="ingest-banner-quarantined">
          <strong>{plural(q.spans, 'span was', 'spans were')} set aside</strong>: ClickHouse refused{' '}
          {q.spans === 1 ? 'it' : 'them'} on {q.spans === 1 ? 'its' : 'their'} own, and the rest of{' '}
          {q.spans === 1 ? 'its batch' : 'their batches'} is stored.
          {q.lastAt !== null && q.lastReason !== null && ` Last at ${time(q.lastAt)}: ${q.lastReason}.`} Kept
          with the reason in <code>{q.file ?? `${health.walDir}/rejected`}</code>: fix the sender.
        </p>
      )}
      {problems.refused && (
        <p data-testid="ingest-banner-refused">
          <strong>Spans were refused.</strong> {refusedText(health)} Details: <code>/metrics</code>{' '}
          faultline_otlp_responses_total and faultline_spans_rejected_total.
        </p>
      )}
    </div>
  );
}

/** Shown under the page head when accepted spans are not stored yet or spans were refused. */
export async function IngestBanner() {
  return <IngestBannerView health={await loadIngestHealth()} now={Date.now()} />;
}

/** The five ingest counters, from a health snapshot. */
export function IngestHealthView({ health }: { health: Health | null }) {
  if (!health) {
    return (
      <section className="panel" data-testid="ingest-health">
        <h2>Ingest</h2>
        <p className="muted">
          No collector runs in this process: its counters are at the collector's GET /healthz.
        </p>
      </section>
    );
  }
  const e = health.insertErrors;
  return (
    <section className="panel" data-testid="ingest-health">
      <h2>Ingest since {time(health.startedAt)}</h2>
      <table>
        <tbody>
          <tr>
            <th>accepted</th>
            <td data-testid="ingest-accepted">{formatCount(health.accepted)}</td>
          </tr>
          <tr>
            <th>stored</th>
            <td data-testid="ingest-stored">{formatCount(health.stored)}</td>
          </tr>
          <tr>
            <th>refused</th>
            <td data-testid="ingest-refused">
              {plural(health.refused.spans, 'span', 'spans')},{' '}
              {plural(health.refused.requests, 'request', 'requests')}
            </td>
          </tr>
          <tr>
            <th>spooled, not yet stored</th>
            <td data-testid="ingest-pending">{formatCount(health.pending)}</td>
          </tr>
          <tr>
            <th>set aside (refused by ClickHouse)</th>
            <td data-testid="ingest-quarantined">{formatCount(health.quarantine.spans)}</td>
          </tr>
          <tr>
            <th>insert errors</th>
            <td data-testid="ingest-insert-errors">
              {formatCount(e.count)}
              {e.lastMessage !== null && e.lastAt !== null && (
                <span className="muted">
                  {' '}
                  (last at {time(e.lastAt)}: {e.lastMessage})
                </span>
              )}
            </td>
          </tr>
        </tbody>
      </table>
    </section>
  );
}

/** The ingest counters of the collector in this process. */
export async function IngestHealth() {
  return <IngestHealthView health={await loadIngestHealth()} />;
}
