// Demo service "payments": the upstream charge API through withRetry, a MariaDB ledger, and the
// AWS SDK (DynamoDB, with its own retries) against the local AWS-compatible endpoint. Run under the
// preload.
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { withRetry } from '@faultline/instrumentation';
import mysql from 'mysql2/promise';
import { MARIADB } from './fixtures.mjs';
import { StepFailed, serve, statusForError } from './service-runtime.mjs';

const upstream = process.env.UPSTREAM_URL;
const pool = mysql.createPool({ ...MARIADB, connectionLimit: 4 });
const dynamo = new DynamoDBClient({
  endpoint: `${upstream}/aws`,
  region: 'us-east-1',
  // A local fake endpoint: placeholder credentials, never real ones.
  credentials: { accessKeyId: 'FLDEMOACCESSKEY', secretAccessKey: 'fl-demo-placeholder' },
  // The SDK's own retry loop: a throttled PutItem is retried by the SDK, not by withRetry.
  maxAttempts: 3,
});

const CHARGE_FAULTS = {
  charge_rate_limited: ['429', 1],
  charge_unavailable: ['503', 2],
  charge_invalid: ['400', 1],
  charge_unauthorized: ['401', 1],
  customer_not_found: ['404', 1],
  charge_declined_200: ['ok_false', 1],
};

async function step(name, fn, ctx) {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof StepFailed) throw err;
    const { status, envelope } = statusForError(err?.cause ?? err, ctx);
    throw new StepFailed(status, { step: name, class: envelope.class, code: envelope.code });
  }
}

serve(
  {
    'POST /charge': async ({ scenario, order }) => {
      const [fault, times] = CHARGE_FAULTS[scenario] ?? [];
      const query = new URLSearchParams({ key: order, ...(fault ? { fault, times: String(times) } : {}) });
      const res = await withRetry(() =>
        fetch(`${upstream}/v1/charges?${query}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ amount: 1200, currency: 'eur', order }),
        }),
      );
      const charge = await res.json().catch(() => ({}));
      if (!res.ok || charge.ok === false) {
        throw new StepFailed(res.ok ? 402 : res.status, { step: 'charge', upstream: charge });
      }
      await step(
        'ledger',
        () => pool.query('INSERT INTO fl_demo_ledger (id, amount) VALUES (?, ?)', [order, 1200]),
        {
          system: 'mariadb',
        },
      );
      if (scenario === 'ledger_duplicate') {
        await step(
          'ledger',
          () => pool.query('INSERT INTO fl_demo_ledger (id, amount) VALUES (?, ?)', [order, 1200]),
          {
            system: 'mariadb',
          },
        );
      }
      const table = scenario === 'dynamo_throttled' ? 'fl_demo_throttled' : 'fl_demo_payments';
      await step('receipt', () =>
        dynamo.send(new PutItemCommand({ TableName: table, Item: { id: { S: order } } })),
      );
      return { ok: true, charge: charge.id };
    },
  },
  async () => {
    await pool.end();
    dynamo.destroy();
  },
);
