/**
 * Runs the real AWS SDK v3 DynamoDB client against a local HTTP server (127.0.0.1:0) that answers with
 * DynamoDB's documented JSON 1.0 error bodies, so the corpus classifies the ServiceException instances the
 * SDK's own deserializer builds ($fault, $metadata.httpStatusCode, $retryable, name).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** Credentials planted so the corpus can check they never reach an envelope. */
export const DDB_SECRET_ACCESS_KEY = 'h6SecretAccessKeyDoNotLeak0123456789abcd';
export const DDB_SESSION_TOKEN = 'h6SessionTokenDoNotLeakIQoJb3JpZ2luX2VjEJr';

export interface DynamoFault {
  status: number;
  type: string;
  message: string;
  headers?: Record<string, string>;
  /** Sent verbatim instead of the JSON error body (a load balancer's HTML page, say). */
  rawBody?: string;
}

let started: Promise<{ server: http.Server; port: number }> | undefined;
const faults = new Map<string, DynamoFault>();

function start(): Promise<{ server: http.Server; port: number }> {
  started ??= new Promise((resolve) => {
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString('utf8');
      });
      req.on('end', () => {
        const table = (JSON.parse(body) as { TableName?: string }).TableName ?? '';
        const fault = faults.get(table) ?? {
          status: 500,
          type: 'InternalServerError',
          message: 'no fault registered',
        };
        res.writeHead(fault.status, {
          'content-type': 'application/x-amz-json-1.0',
          'x-amzn-requestid': `H6CORPUS${table.toUpperCase().replace(/[^A-Z0-9]/g, '')}`,
          ...fault.headers,
        });
        res.end(fault.rawBody ?? JSON.stringify({ __type: fault.type, message: fault.message }));
      });
    });
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as AddressInfo).port }));
  });
  return started;
}

/** The exception the real DynamoDBClient throws when the service answers with `fault`. */
export async function dynamoError(table: string, fault: DynamoFault): Promise<unknown> {
  const { port } = await start();
  faults.set(table, fault);
  return describeTableAt(port, table);
}

/** The exception the real DynamoDBClient throws when nothing listens on `port`. */
export function dynamoErrorAt(port: number): Promise<unknown> {
  return describeTableAt(port, 'h6corpus_unreachable');
}

async function describeTableAt(port: number, table: string): Promise<unknown> {
  const client = new DynamoDBClient({
    region: 'eu-west-1',
    endpoint: `http://127.0.0.1:${port}`,
    maxAttempts: 1,
    credentials: {
      accessKeyId: 'AKIAH6CORPUSEXAMPLE',
      secretAccessKey: DDB_SECRET_ACCESS_KEY,
      sessionToken: DDB_SESSION_TOKEN,
    },
  });
  try {
    await client.send(new DescribeTableCommand({ TableName: table }));
  } catch (err) {
    return err;
  } finally {
    client.destroy();
  }
  throw new Error('expected DynamoDB call to fail');
}

export async function stopDynamoServer(): Promise<void> {
  if (!started) return;
  const { server } = await started;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  started = undefined;
}
