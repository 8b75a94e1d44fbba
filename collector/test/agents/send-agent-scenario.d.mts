/** The agent scenario sent to an OTLP endpoint (send-agent-scenario.mjs). */
export declare function sendAgentScenario(options: {
  /** The OTLP/HTTP base URL; /v1/traces is appended. */
  otlpUrl: string;
  /** OTEL_SERVICE_NAME of the agent service. */
  service: string;
  /** Under the Faultline preload (default) or stock OpenTelemetry. */
  mode?: 'preload' | 'stock';
  /** The collector's ingest token, when it asks for one. */
  token?: string;
  /** Keeps the API's per-run state and the table apart between sends (default: unique). */
  tag?: string;
}): Promise<{ stdout: string; stderr: string }>;
