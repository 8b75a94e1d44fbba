import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtoExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { unrefExportRetries } from '../../src/preload/sdk/unref-retries.js';

type Status = 'success' | 'failure' | 'retryable';

/** The exporter's internal chain (delegate → retrying transport → HTTP transport), HTTP faked. */
function fakeExporter(answers: Status[]) {
  const sent: number[] = [];
  const http = {
    send: async (_data: Uint8Array, timeoutMillis: number) => {
      sent.push(timeoutMillis);
      return { status: answers.shift() ?? ('success' as Status) };
    },
    shutdown: () => {},
  };
  const delegate = { _transport: { _transport: http, send: http.send, shutdown: http.shutdown } };
  const exporter = { _delegate: delegate } as unknown as SpanExporter;
  const send = (timeoutMillis: number) =>
    (delegate._transport as typeof http).send(new Uint8Array(1), timeoutMillis);
  return { exporter, sent, send };
}

describe('unrefExportRetries', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('finds the retrying transport inside the installed OTLP exporters (protobuf and JSON)', () => {
    // If an exporter upgrade moves these internals, this fails instead of silently keeping
    // retry timers that hold a finished process open.
    expect(unrefExportRetries(new ProtoExporter({ url: 'http://127.0.0.1:1/v1/traces' }))).toBe(true);
    expect(unrefExportRetries(new JsonExporter({ url: 'http://127.0.0.1:1/v1/traces' }))).toBe(true);
  });

  it('keeps the exporter retry policy: back off, retry, succeed', async () => {
    vi.useFakeTimers();
    const { exporter, sent, send } = fakeExporter(['retryable', 'retryable', 'success']);
    expect(unrefExportRetries(exporter)).toBe(true);
    const result = send(10_000);
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(result).resolves.toEqual({ status: 'success' });
    expect(sent).toHaveLength(3);
    expect(sent[2]).toBeLessThan(10_000); // later attempts get what is left of the deadline
  });

  it('gives up when the next wait would pass the export deadline', async () => {
    vi.useFakeTimers();
    const { exporter, sent, send } = fakeExporter(['retryable', 'retryable', 'retryable']);
    unrefExportRetries(exporter);
    const result = send(500); // the first backoff (~1 s) is already beyond it
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(result).resolves.toEqual({ status: 'retryable' });
    expect(sent).toHaveLength(1);
  });

  it('leaves an exporter of another shape alone', () => {
    const other = { export: () => {}, shutdown: async () => {} } as unknown as SpanExporter;
    expect(unrefExportRetries(other)).toBe(false);
  });
});
