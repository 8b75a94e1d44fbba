/**
 * A real @grpc/grpc-js server on 127.0.0.1:0 whose one method fails with the status the client asks for,
 * so the corpus classifies the ServiceError grpc-js really builds (callErrorFromStatus: code, details,
 * metadata, the "14 UNAVAILABLE: …" message).
 */
import {
  type Client,
  credentials,
  Metadata,
  makeGenericClientConstructor,
  Server,
  ServerCredentials,
  type ServerUnaryCall,
  type ServiceDefinition,
  type ServiceError,
  type sendUnaryData,
} from '@grpc/grpc-js';

interface FailRequest {
  code: number;
  details: string;
  trailers?: Record<string, string>;
}

const json = {
  serialize: (value: unknown): Buffer => Buffer.from(JSON.stringify(value)),
  deserialize: (bytes: Buffer): unknown => JSON.parse(bytes.toString('utf8')),
};

const service: ServiceDefinition = {
  fail: {
    path: '/h6corpus.Corpus/Fail',
    requestStream: false,
    responseStream: false,
    requestSerialize: json.serialize,
    requestDeserialize: json.deserialize,
    responseSerialize: json.serialize,
    responseDeserialize: json.deserialize,
  },
};

type FailClient = Client & {
  fail(
    request: FailRequest,
    metadata: Metadata,
    options: { deadline: number },
    cb: (err: ServiceError | null) => void,
  ): void;
};

let started: Promise<{ server: Server; port: number }> | undefined;

function start(): Promise<{ server: Server; port: number }> {
  started ??= new Promise((resolve, reject) => {
    const server = new Server();
    server.addService(service, {
      fail: (call: ServerUnaryCall<FailRequest, unknown>, callback: sendUnaryData<unknown>) => {
        const metadata = new Metadata();
        for (const [k, v] of Object.entries(call.request.trailers ?? {})) metadata.set(k, v);
        callback({ code: call.request.code, details: call.request.details, metadata });
      },
    });
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, port) =>
      err ? reject(err) : resolve({ server, port }),
    );
  });
  return started;
}

function callFail(port: number, request: FailRequest, metadata = new Metadata()): Promise<ServiceError> {
  const Ctor = makeGenericClientConstructor(service, 'Corpus') as unknown as new (
    address: string,
    creds: ReturnType<typeof credentials.createInsecure>,
  ) => FailClient;
  const client = new Ctor(`127.0.0.1:${port}`, credentials.createInsecure());
  return new Promise((resolve, reject) => {
    client.fail(request, metadata, { deadline: Date.now() + 5000 }, (err) => {
      client.close();
      if (err) resolve(err);
      else reject(new Error('expected the gRPC call to fail'));
    });
  });
}

/** The ServiceError a real grpc-js client receives when the server fails with `code`. */
export async function grpcStatusError(
  code: number,
  details: string,
  trailers?: Record<string, string>,
  requestMetadata?: Record<string, string>,
): Promise<ServiceError> {
  const { port } = await start();
  const md = new Metadata();
  for (const [k, v] of Object.entries(requestMetadata ?? {})) md.set(k, v);
  return callFail(port, { code, details, ...(trailers ? { trailers } : {}) }, md);
}

/** The ServiceError for a call to a port where nothing listens (14 UNAVAILABLE from the channel). */
export async function grpcUnreachable(port: number): Promise<ServiceError> {
  return callFail(port, { code: 0, details: '' });
}

/** The ServiceError for a call whose deadline passes while the server is silent (4 DEADLINE_EXCEEDED). */
export async function grpcDeadline(): Promise<ServiceError> {
  const { port } = await start();
  const Ctor = makeGenericClientConstructor(service, 'Corpus') as unknown as new (
    address: string,
    creds: ReturnType<typeof credentials.createInsecure>,
  ) => FailClient;
  const client = new Ctor(`127.0.0.1:${port}`, credentials.createInsecure());
  return new Promise((resolve, reject) => {
    // A deadline already in the past: grpc-js fails the call locally with DEADLINE_EXCEEDED.
    client.fail({ code: 0, details: '' }, new Metadata(), { deadline: Date.now() - 1 }, (err) => {
      client.close();
      if (err) resolve(err);
      else reject(new Error('expected DEADLINE_EXCEEDED'));
    });
  });
}

export async function stopGrpcServer(): Promise<void> {
  if (!started) return;
  const { server } = await started;
  await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  started = undefined;
}
