// Ground-truth service "billing": the upstream charge and coupon API and the real AWS SDK
// (DynamoDB, with its own retries) against the upstream's DynamoDB endpoint. Each scenario makes
// exactly the calls ../scenario.ts counts for it; keep the two in step.
import { DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { StepFailed, serve } from '../../../../scripts/demo/service-runtime.mjs';

const upstream = process.env.UPSTREAM_URL;
const dynamo = new DynamoDBClient({
  endpoint: `${upstream}/aws`,
  region: 'us-east-1',
  // A local fake endpoint: placeholder credentials, never real ones.
  credentials: { accessKeyId: 'FLGTACCESSKEY', secretAccessKey: 'fl-gt-placeholder' },
  // The SDK's own retry loop: a throttled attempt is retried by the SDK, not by billing.
  maxAttempts: 3,
});

const post = (path, order) =>
  fetch(`${upstream}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ order, amount: 1200 }),
  });
const putItem = (table, order) =>
  dynamo.send(new PutItemCommand({ TableName: table, Item: { id: { S: order } } }));

const SCENARIOS = {
  all_ok: async (order) => {
    const res = await post('/v1/charges', order);
    await res.json();
    await putItem('fl_gt_receipts', order);
  },
  coupon_400: async (order) => {
    let res = await post('/v1/coupons?fault=400', order);
    await res.arrayBuffer();
    // A naive repeat of a 400: the identical call cannot succeed.
    if (!res.ok) res = await post('/v1/coupons?fault=400', order);
    await res.arrayBuffer();
    if (!res.ok) throw new StepFailed(422, { reason: 'coupon refused' });
  },
  ddb_throttled: (order) => putItem('fl_gt_throttled', order),
  charge_ok_false: async (order) => {
    const res = await post('/v1/charges?fault=ok_false', order);
    const charge = await res.json();
    if (charge.ok === false) throw new StepFailed(402, { reason: 'payment declined' });
  },
};

serve(
  {
    'POST /charge': async ({ scenario, order }) => {
      await SCENARIOS[scenario](order);
      return { ok: true };
    },
  },
  async () => dynamo.destroy(),
);
