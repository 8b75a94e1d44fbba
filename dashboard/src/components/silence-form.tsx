'use client';

import { useState } from 'react';
import { isoParam } from '../lib/time-range';
import { formatZoned, parseZonedInput } from '../lib/zoned-time';

const DURATIONS = ['30m', '1h', '2h', '4h', '8h', '1d', '3d'];

/**
 * A new silence: at least one matcher (service, class, alert name; each matches that label
 * exactly), for a while or until a time typed in the reader's zone, with a reason; the author is
 * the panel's. The route validates with the alerts API's own rules and its refusal is shown as is.
 */
export function SilenceForm({
  author,
  services,
  classes,
  alertnames,
  zone,
  onSaved,
}: {
  author: string;
  services: string[];
  classes: string[];
  alertnames: string[];
  zone: string;
  onSaved: () => void;
}) {
  const [service, setService] = useState('');
  const [cls, setCls] = useState('');
  const [alertname, setAlertname] = useState('');
  const [lasting, setLasting] = useState('1h');
  const [until, setUntil] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit() {
    const end: Record<string, string> = {};
    if (lasting === 'until') {
      const s = parseZonedInput(until, zone);
      if (s === null) {
        setError(
          `write the end as YYYY-MM-DD HH:MM (24-hour, ${zone}), e.g. ${formatZoned(Date.now() / 1000 + 3600, zone, 'input')}`,
        );
        return;
      }
      end.endsAt = isoParam(s);
    } else end.duration = lasting;
    setBusy(true);
    setError('');
    try {
      const res = await fetch('/api/alerts/silences', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ service, class: cls, alertname, ...end, author, reason }),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { error?: string };
        setError(body.error ?? `the silence was refused (HTTP ${res.status})`);
        return;
      }
      setReason('');
      onSaved();
    } catch (err) {
      setError(`the silence could not be sent: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="silence-form"
      data-testid="silence-form"
      aria-label="New silence"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label>
        Service{' '}
        <input
          data-testid="silence-service"
          list="silence-services"
          value={service}
          placeholder="any"
          size={14}
          onChange={(e) => setService(e.target.value)}
        />
        <datalist id="silence-services">
          {services.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      </label>
      <label>
        Class{' '}
        <select data-testid="silence-class" value={cls} onChange={(e) => setCls(e.target.value)}>
          <option value="">any</option>
          {classes.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label>
        Alert{' '}
        <input
          data-testid="silence-alertname"
          list="silence-alertnames"
          value={alertname}
          placeholder="any"
          size={16}
          onChange={(e) => setAlertname(e.target.value)}
        />
        <datalist id="silence-alertnames">
          {alertnames.map((a) => (
            <option key={a} value={a} />
          ))}
        </datalist>
      </label>
      <label>
        For{' '}
        <select data-testid="silence-for" value={lasting} onChange={(e) => setLasting(e.target.value)}>
          {DURATIONS.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
          <option value="until">until…</option>
        </select>
      </label>
      {lasting === 'until' ? (
        <label>
          Until ({zone}, 24-hour){' '}
          <input
            data-testid="silence-until"
            value={until}
            placeholder="YYYY-MM-DD HH:MM"
            size={16}
            onChange={(e) => setUntil(e.target.value)}
          />
        </label>
      ) : null}
      <label className="silence-reason">
        Reason{' '}
        <input
          data-testid="silence-reason"
          value={reason}
          placeholder="the incident, the known cause"
          maxLength={2000}
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      <button type="submit" data-testid="silence-submit" disabled={busy}>
        Silence
      </button>
      {error ? (
        <p className="error-box" role="alert" data-testid="silence-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
