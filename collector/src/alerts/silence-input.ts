import { ERROR_CLASSES } from '@faultline/instrumentation';
import { UNCLASSIFIED } from '../budget/index.js';

/** Equality matchers on an alert's labels; '' matches any value. */
export interface SilenceMatchers {
  service: string;
  class: string;
  alertname: string;
}

/** A silence as an engineer asks for it, validated. */
export interface SilenceSpec extends SilenceMatchers {
  startsAtMs: number;
  endsAtMs: number;
  author: string;
  reason: string;
}

/**
 * The longest silence accepted: an alert muted for longer than a month is a rule to change (its
 * SLO, its min_events), not an incident to sit out.
 */
export const MAX_SILENCE_MS = 30 * 86_400_000;

/** A request body the alerts API refuses: the field, what is wrong and the fix. */
export class SilenceInputError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'SilenceInputError';
  }
}

const KEYS = ['service', 'class', 'alertname', 'startsAt', 'endsAt', 'duration', 'author', 'reason'];
const EXAMPLE =
  '{"service": "payments", "class": "rate_limit", "duration": "1h", "author": "ana", "reason": "Stripe incident INC-42"}';
const UNITS_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

function text(body: Record<string, unknown>, key: string, max: number, required: boolean): string {
  const v = body[key];
  if (v === undefined || v === null || v === '') {
    if (required)
      throw new SilenceInputError(
        `${key} is missing: give ${key === 'author' ? 'who silences (a name or handle)' : 'why (an incident, a known cause)'}, e.g. ${EXAMPLE}`,
      );
    return '';
  }
  if (typeof v !== 'string' || v.trim() === '' || v.length > max)
    throw new SilenceInputError(`${key} is ${JSON.stringify(v)}: give a string of 1 to ${max} characters.`);
  return v.trim();
}

function time(body: Record<string, unknown>, key: string): number | null {
  const v = body[key];
  if (v === undefined || v === null || v === '') return null;
  const ms = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : Number.NaN;
  if (!Number.isFinite(ms))
    throw new SilenceInputError(
      `${key} is ${JSON.stringify(v)}: give an ISO 8601 time with its zone, e.g. 2026-03-01T18:30:00Z.`,
    );
  return ms;
}

function duration(v: unknown): number | null {
  if (v === undefined || v === null || v === '') return null;
  const m = typeof v === 'string' ? /^(\d+)\s*([smhd])$/.exec(v.trim()) : null;
  if (!m)
    throw new SilenceInputError(
      `duration is ${JSON.stringify(v)}: give a number and a unit (s, m, h or d), e.g. "90m" or "1h".`,
    );
  return Number(m[1]) * (UNITS_MS[m[2] as string] as number);
}

/**
 * Validates a POST /api/alerts/silences body: at least one matcher (service, class, alertname),
 * an end (endsAt, or duration from the start), an author and a reason; the start defaults to now.
 */
export function parseSilenceInput(body: unknown, nowMs: number): SilenceSpec {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new SilenceInputError(`the body is not a JSON object: send one such as ${EXAMPLE}`);
  const b = body as Record<string, unknown>;
  for (const k of Object.keys(b))
    if (!KEYS.includes(k))
      throw new SilenceInputError(`${k} is not a field of a silence: its fields are ${KEYS.join(', ')}.`);
  const service = text(b, 'service', 200, false);
  const cls = text(b, 'class', 40, false);
  const alertname = text(b, 'alertname', 200, false);
  if (!service && !cls && !alertname)
    throw new SilenceInputError(
      `a silence needs at least one matcher: give service, class or alertname (each matches that label exactly), e.g. ${EXAMPLE}`,
    );
  const classes = [...ERROR_CLASSES, UNCLASSIFIED];
  if (cls && !classes.includes(cls))
    throw new SilenceInputError(`class is ${JSON.stringify(cls)}: give one of ${classes.join(', ')}.`);
  if (alertname && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(alertname))
    throw new SilenceInputError(
      `alertname is ${JSON.stringify(alertname)}: give an alert name of letters, digits and _, e.g. ErrorBudgetBurn.`,
    );
  const startsAtMs = time(b, 'startsAt') ?? nowMs;
  const endsAt = time(b, 'endsAt');
  const lasts = duration(b.duration);
  if ((endsAt === null) === (lasts === null))
    throw new SilenceInputError(
      'give the silence an end: either endsAt (an ISO 8601 time) or duration (e.g. "1h"), not both.',
    );
  const endsAtMs = endsAt ?? startsAtMs + (lasts as number);
  if (endsAtMs <= nowMs)
    throw new SilenceInputError(
      `the silence would end at ${new Date(endsAtMs).toISOString()}, already past: give an end in the future.`,
    );
  if (endsAtMs <= startsAtMs)
    throw new SilenceInputError(
      'the silence ends before it starts: give an endsAt after startsAt, or a positive duration.',
    );
  if (endsAtMs - startsAtMs > MAX_SILENCE_MS)
    throw new SilenceInputError(
      'a silence lasts at most 30 days: for longer, change the rule (its SLO or min_events in FAULTLINE_ALERT_RULES).',
    );
  return {
    service,
    class: cls,
    alertname,
    startsAtMs,
    endsAtMs,
    author: text(b, 'author', 200, true),
    reason: text(b, 'reason', 2000, true),
  };
}

/** Whether a silence's matchers all hold for an alert's labels. */
export function silenceMatches(m: SilenceMatchers, alert: SilenceMatchers): boolean {
  return (
    (m.service === '' || m.service === alert.service) &&
    (m.class === '' || m.class === alert.class) &&
    (m.alertname === '' || m.alertname === alert.alertname)
  );
}
