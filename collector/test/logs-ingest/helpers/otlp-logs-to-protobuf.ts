import protobuf from 'protobufjs/minimal.js';
import {
  anyValue,
  attributes,
  enumValue,
  fixed64,
  hex,
  message,
  str,
} from '../../golden/otlp-json-to-protobuf.js';

// The golden encoder's independent OTLP/JSON → protobuf mapping, for ExportLogsServiceRequest
// (field numbers from opentelemetry-proto logs/v1): camelCase names, hex ids, int64 as strings.

type J = Record<string, unknown>;

export function otlpLogsJsonToProtobuf(request: J): Buffer {
  const w = protobuf.Writer.create();
  for (const rl of (request.resourceLogs as J[]) ?? []) {
    message(w, 1, () => {
      const resource = rl.resource as J | undefined;
      if (resource) message(w, 1, () => attributes(w, 1, resource.attributes));
      for (const sl of (rl.scopeLogs as J[]) ?? []) {
        message(w, 2, () => {
          const scope = sl.scope as J | undefined;
          if (scope)
            message(w, 1, () => {
              str(w, 1, scope.name);
              str(w, 2, scope.version);
              attributes(w, 3, scope.attributes);
            });
          for (const r of (sl.logRecords as J[]) ?? []) message(w, 2, () => logRecord(w, r));
          str(w, 3, sl.schemaUrl);
        });
      }
      str(w, 3, rl.schemaUrl);
    });
  }
  return Buffer.from(w.finish());
}

function logRecord(w: protobuf.Writer, r: J): void {
  fixed64(w, 1, r.timeUnixNano);
  enumValue(w, 2, r.severityNumber);
  str(w, 3, r.severityText);
  if (r.body !== undefined) message(w, 5, () => anyValue(w, r.body as J));
  attributes(w, 6, r.attributes);
  if (typeof r.flags === 'number') w.uint32((8 << 3) | 5).fixed32(r.flags);
  hex(w, 9, r.traceId);
  hex(w, 10, r.spanId);
  fixed64(w, 11, r.observedTimeUnixNano);
  str(w, 12, r.eventName);
}
