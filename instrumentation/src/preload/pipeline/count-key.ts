import { type Attributes, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_CLASS,
  ATTR_CODE,
  ATTR_ENTRY,
  ATTR_PREVIOUS_CLASS,
  ATTR_PREVIOUS_CODE,
  ATTR_SOURCE,
} from '../../envelope/attribute-names.js';
import { callDependencyOf } from '../../envelope/call-dependency.js';
import { isCountedCall, isPropagated, sdkAttemptsOf } from '../../envelope/counted-call.js';
import { dbSystemOf } from '../../envelope/db-system.js';
import { failingHttpStatusOf } from '../../envelope/http-status-of.js';
import { sourceOf, spanSourceOf } from '../../envelope/span-source.js';
import { storedText } from '../../envelope/stored-text.js';
import { httpStatusEnvelope } from '../../http/http-status-envelope.js';
import type { Envelope } from '../../types.js';

/** The API's SpanKind (INTERNAL 0 … CONSUMER 4) as the collector stores it (faultline_span_kind). */
const KIND_NAMES = ['Internal', 'Server', 'Client', 'Producer', 'Consumer'];

/**
 * What the counts key an ended span by: the counting rules of sql/schema/005_functions.sql and
 * 006_dependency_function.sql (their TypeScript twins) applied to the span as the collector will
 * store it, so that a call counted here is the call the rollups would count from its span.
 */
export interface CountKey {
  /** The span kind and entry mark as one small number: the counts' first lookup. */
  slot: number;
  kind: string;
  source: string;
  dependency: string;
  /** A root SERVER span: a request this process received from outside. */
  entry: boolean;
  failed: boolean;
  /** Failures only: the envelope's class ('' when unclassified) and code. */
  class: string;
  code: string;
  propagated: boolean;
  /** faultline_sdk_attempts: N > 1 when the library retried inside the operation. */
  attempts: number;
  /** The envelope of the attempt before the last (faultline.previous_*), read when attempts > 1. */
  previousClass: string;
  previousCode: string;
}

/** The span's count key, or undefined when it is no call (faultline_counted_call). */
export function countKeyOf(span: ReadableSpan): CountKey | undefined {
  const attrs = span.attributes;
  const kindIndex = span.kind >= 0 && span.kind < KIND_NAMES.length ? span.kind : KIND_NAMES.length;
  const kind = KIND_NAMES[kindIndex] ?? '';
  const errorStatus = span.status.code === SpanStatusCode.ERROR;
  if (!isCountedCall(span.name, kind, attrs, errorStatus)) return undefined;
  // A server span that failed by its HTTP status alone travels without its envelope, which the
  // collector rebuilds before anything counts it (derived-attributes.ts): rebuilt the same way. (Its
  // class cannot have made it a checkout, a database connect, so the rule above read attrs as is.)
  const derived =
    span.kind === SpanKind.SERVER && attrs[ATTR_CLASS] === undefined ? statusEnvelopeOf(attrs) : null;
  const entry =
    span.kind === SpanKind.SERVER && span.parentSpanContext === undefined && attrs[ATTR_ENTRY] !== false;
  const cls = derived ? derived.class : storedText(attrs[ATTR_CLASS]);
  const attempts = sdkAttemptsOf(attrs);
  return {
    slot: kindIndex * 2 + (entry ? 1 : 0),
    kind,
    // The rebuilt envelope's source is what the collector files the span under.
    source: derived ? derived.source : spanSourceOf(attrs),
    dependency: callDependencyOf(kind, attrs),
    entry,
    failed: cls !== '' || errorStatus,
    class: cls,
    code: derived ? derived.code : storedText(attrs[ATTR_CODE]),
    propagated: isPropagated(attrs),
    attempts,
    previousClass: attempts > 1 ? storedText(attrs[ATTR_PREVIOUS_CLASS]) : '',
    previousCode: attempts > 1 ? storedText(attrs[ATTR_PREVIOUS_CODE]) : '',
  };
}

/** Derived envelopes by status, source and system: each is classifyHttpResponse's, ~1 µs a call. */
const MAX_DERIVED = 256;
const derivedEnvelopes = new Map<string, Envelope | null>();

/** httpStatusEnvelope's answer for a server span without an envelope (null below 400). */
function statusEnvelopeOf(attrs: Attributes): Envelope | null {
  const status = failingHttpStatusOf(attrs);
  if (status === undefined) return null;
  // What httpStatusEnvelope reads of the span: the status, the source and the system.
  const source = (attrs[ATTR_SOURCE] as string | undefined) ?? sourceOf(attrs);
  const id = `${status}|${source ?? ''}|${dbSystemOf(attrs) ?? ''}`;
  let envelope = derivedEnvelopes.get(id);
  if (envelope === undefined) {
    envelope = httpStatusEnvelope(attrs, '', source);
    if (derivedEnvelopes.size >= MAX_DERIVED) derivedEnvelopes.clear();
    derivedEnvelopes.set(id, envelope);
  }
  return envelope;
}
