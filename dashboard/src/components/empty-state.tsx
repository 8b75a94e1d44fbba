/** Shown when no span reached the store: says how to send some. */
export function EmptyState({ otlpEndpoint }: { otlpEndpoint: string }) {
  return (
    <section className="empty-state" data-testid="empty-state">
      <h2>No calls recorded in this range yet</h2>
      <p>
        Faultline learns about failures from the OpenTelemetry spans your services send. Attach the preload:
      </p>
      <pre>
        {`npm install @faultline/instrumentation
OTEL_SERVICE_NAME=checkout \\
OTEL_EXPORTER_OTLP_ENDPOINT=${otlpEndpoint} \\
node --import @faultline/instrumentation/register app.js`}
      </pre>
      <p>
        Or run <code>npm run demo</code> next to <code>npm start</code> for a fault-injecting workload. Still
        empty? Widen the time range, or clear the service and source filters.
      </p>
    </section>
  );
}
