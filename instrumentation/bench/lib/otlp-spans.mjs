// The spans in one OTLP/HTTP protobuf trace export (an ExportTraceServiceRequest body), counted by
// instrumentation scope and span kind, so the preload bench's sink can tell what each arm traced.
// Reads the protobuf wire format directly: ExportTraceServiceRequest.resource_spans (1) >
// ResourceSpans.scope_spans (2) > ScopeSpans.scope (1, InstrumentationScope.name 1) and
// ScopeSpans.spans (2) > Span.kind (6).

const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];

/** `{ '<scope name> <kind>': count }` for one export body. */
export function countSpans(body) {
  const counts = {};
  for (const [field, resourceSpans] of fields(body)) {
    if (field !== 1) continue;
    for (const [inner, scopeSpans] of fields(resourceSpans)) {
      if (inner !== 2) continue;
      let scope = '(no scope)';
      const spans = [];
      for (const [f, value] of fields(scopeSpans)) {
        if (f === 1) for (const [g, name] of fields(value)) if (g === 1) scope = name.toString('utf8');
        if (f === 2) spans.push(value);
      }
      for (const span of spans) {
        let kind = 0;
        for (const [f, value] of fields(span)) if (f === 6) kind = value;
        const key = `${scope} ${KINDS[kind] ?? kind}`;
        counts[key] = (counts[key] ?? 0) + 1;
      }
    }
  }
  return counts;
}

/** The fields of one message as [number, value]: a number for varints, a Buffer for length-delimited ones. */
function* fields(buf) {
  let at = 0;
  while (at < buf.length) {
    const [tag, afterTag] = varint(buf, at);
    const field = Math.floor(tag / 8);
    const wire = tag % 8;
    at = afterTag;
    if (wire === 0) {
      const [value, next] = varint(buf, at);
      at = next;
      yield [field, value];
    } else if (wire === 2) {
      const [length, start] = varint(buf, at);
      at = start + length;
      yield [field, buf.subarray(start, at)];
    } else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new Error(`protobuf wire type ${wire} at byte ${at}`);
  }
}

function varint(buf, at) {
  let value = 0;
  let scale = 1;
  let byte;
  do {
    byte = buf[at++];
    value += (byte & 0x7f) * scale;
    scale *= 128;
  } while (byte & 0x80);
  return [value, at];
}
