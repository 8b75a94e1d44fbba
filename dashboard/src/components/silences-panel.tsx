'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { SilenceForm } from './silence-form';

/** A silence as the page lists it (times already in the reader's zone). */
export interface SilenceRow {
  id: string;
  service: string;
  class: string;
  alertname: string;
  starts: string;
  ends: string;
  author: string;
  reason: string;
  status: 'pending' | 'active' | 'expired';
  expiredBy: string;
  /** Alertmanager's copy: '' when none is configured. */
  mirror: string;
}

/** Who is silencing, remembered in this browser: typed once per shift, not once per silence. */
const AUTHOR_KEY = 'faultline.silence-author';

function matchers(s: SilenceRow): string {
  const m = [
    s.service && `service=${s.service}`,
    s.class && `class=${s.class}`,
    s.alertname && `alertname=${s.alertname}`,
  ].filter(Boolean);
  return m.join(', ');
}

/** Silences listed with their state, the form for a new one and a button to end one early. */
export function SilencesPanel({
  silences,
  services,
  classes,
  alertnames,
  zone,
  mirrored,
}: {
  silences: SilenceRow[];
  services: string[];
  classes: string[];
  alertnames: string[];
  zone: string;
  /** Alertmanager is configured: each silence is mirrored there. */
  mirrored: boolean;
}) {
  const router = useRouter();
  const [author, setAuthor] = useState('');
  const [error, setError] = useState('');
  // Until hydrated the buttons are inert HTML: data-ready says when a click will be handled.
  const [ready, setReady] = useState(false);
  useEffect(() => {
    // Whatever was typed before hydration wins over the remembered name.
    setAuthor((typed) => typed || (localStorage.getItem(AUTHOR_KEY) ?? ''));
    setReady(true);
  }, []);

  function rememberAuthor(value: string) {
    setAuthor(value);
    localStorage.setItem(AUTHOR_KEY, value);
  }

  async function expire(id: string) {
    if (author.trim() === '') {
      setError('give your name above: a silence ended early says who ended it');
      return;
    }
    setError('');
    const res = await fetch(`/api/alerts/silences/${encodeURIComponent(id)}/expire`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ author }),
    });
    if (!res.ok) {
      const body = (await res.json().catch(() => ({}))) as { error?: string };
      setError(body.error ?? `the silence could not be ended (HTTP ${res.status})`);
      return;
    }
    router.refresh();
  }

  return (
    <section
      className="panel"
      aria-labelledby="silences-title"
      data-testid="silences-panel"
      data-ready={ready ? 'true' : 'false'}
    >
      <h2 id="silences-title">
        Silences{' '}
        <span className="muted">
          a matching alert is not delivered to the webhook while one is active
          {mirrored ? '; each is mirrored to Alertmanager' : ''}
        </span>
      </h2>
      <label className="silence-author">
        Your name{' '}
        <input
          data-testid="silence-author"
          value={author}
          placeholder="who silences"
          maxLength={200}
          size={14}
          onChange={(e) => rememberAuthor(e.target.value)}
        />
      </label>
      <SilenceForm
        author={author}
        services={services}
        classes={classes}
        alertnames={alertnames}
        zone={zone}
        onSaved={() => router.refresh()}
      />
      {error ? (
        <p className="error-box" role="alert" data-testid="silence-expire-error">
          {error}
        </p>
      ) : null}
      {silences.length === 0 ? (
        <p className="muted" data-testid="no-silences">
          No silence in force, none ended in the last day.
        </p>
      ) : (
        <table data-testid="silences">
          <thead>
            <tr>
              <th>status</th>
              <th>matches</th>
              <th>from ({zone})</th>
              <th>until ({zone})</th>
              <th>by</th>
              <th>reason</th>
              {mirrored ? <th>Alertmanager</th> : null}
              <th />
            </tr>
          </thead>
          <tbody>
            {silences.map((s) => (
              <tr
                key={s.id}
                data-testid="silence"
                data-id={s.id}
                data-status={s.status}
                data-service={s.service}
              >
                <td className={s.status === 'active' ? 'silence-active' : 'muted'}>
                  <strong>{s.status}</strong>
                  {s.expiredBy ? <span className="muted stacked">ended early by {s.expiredBy}</span> : null}
                </td>
                <td>
                  <code>{matchers(s)}</code>
                </td>
                <td className="nowrap">{s.starts}</td>
                <td className="nowrap">{s.ends}</td>
                <td>{s.author}</td>
                <td className="message">{s.reason}</td>
                {mirrored ? <td className="message">{s.mirror}</td> : null}
                <td>
                  {s.status === 'expired' ? null : (
                    <button type="button" data-testid="silence-expire" onClick={() => void expire(s.id)}>
                      Expire now
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
