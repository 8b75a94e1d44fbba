import { type Attributes, context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

export interface SpanSpec {
  name: string;
  kind?: SpanKind;
  attributes?: Attributes;
  error?: string;
  event?: { name: string; attributes?: Attributes };
}

/** Finished SDK spans in one trace (a root server span with the given spans as children). */
export function makeSpans(serviceName: string, specs: SpanSpec[]): ReadableSpan[] {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName, 'deployment.environment.name': 'test' }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  const tracer = provider.getTracer('h4b-receiver-test', '0.0.1');
  // No context manager is registered, so children get their parent explicitly.
  const root = tracer.startSpan('root', { kind: SpanKind.SERVER });
  const parent = trace.setSpan(context.active(), root);
  for (const spec of specs) {
    const span = tracer.startSpan(
      spec.name,
      { kind: spec.kind ?? SpanKind.CLIENT, attributes: spec.attributes },
      parent,
    );
    if (spec.event) span.addEvent(spec.event.name, spec.event.attributes);
    if (spec.error) span.setStatus({ code: SpanStatusCode.ERROR, message: spec.error });
    span.end();
  }
  root.end();
  return memory.getFinishedSpans();
}

/** Runs one export through an official exporter and resolves with its result code. */
export function exportSpans(
  exporter: SpanExporter,
  spans: ReadableSpan[],
): Promise<{ ok: boolean; error?: Error }> {
  return new Promise((resolve) => {
    exporter.export(spans, (result) =>
      resolve({ ok: result.code === ExportResultCode.SUCCESS, error: result.error }),
    );
  });
}
