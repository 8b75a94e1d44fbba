/**
 * Span shapes as the SDKs that send them to Faultline write their attributes (stored form: every
 * value a string), for the counting rules' parity tests. Each names the SDK and instrumentation it
 * stands for; `kind` is the span kind that SDK gives it.
 */
export interface SpanShape {
  id: string;
  kind: 'Client' | 'Server' | 'Producer' | 'Internal';
  attrs: Record<string, string>;
}

const dynamoDbTable = '["orders"]';

export const SPAN_SHAPES: readonly SpanShape[] = [
  // OpenTelemetry JS contrib (the 2.x SDK line): old and stable HTTP conventions side by side.
  {
    id: 'js-http-client-old',
    kind: 'Client',
    attrs: {
      'http.method': 'GET',
      'http.url': 'https://api.example.com/v1/charges',
      'http.status_code': '200',
      'net.peer.name': 'api.example.com',
    },
  },
  {
    id: 'js-undici-fetch',
    kind: 'Client',
    attrs: {
      'http.request.method': 'POST',
      'url.full': 'https://api.stripe.com/v1/charges',
      'server.address': 'api.stripe.com',
      'server.port': '443',
      'http.response.status_code': '200',
    },
  },
  {
    id: 'js-http-server',
    kind: 'Server',
    attrs: {
      'http.method': 'GET',
      'http.target': '/checkout',
      'http.route': '/checkout',
      'http.status_code': '200',
    },
  },
  {
    id: 'js-pg',
    kind: 'Client',
    attrs: {
      'db.system': 'postgresql',
      'db.name': 'shop',
      'db.statement': 'SELECT 1',
      'net.peer.name': 'db',
    },
  },
  {
    id: 'js-ioredis',
    kind: 'Client',
    attrs: { 'db.system': 'redis', 'db.statement': 'get orders:1', 'net.peer.name': 'cache' },
  },
  {
    id: 'js-aws-sdk-dynamodb',
    kind: 'Client',
    attrs: {
      'rpc.system': 'aws-api',
      'rpc.service': 'DynamoDB',
      'rpc.method': 'PutItem',
      'db.system': 'dynamodb',
      'db.operation': 'PutItem',
      'aws.dynamodb.table_names': dynamoDbTable,
      'aws.region': 'eu-west-1',
    },
  },
  {
    id: 'js-aws-sdk-s3',
    kind: 'Client',
    attrs: {
      'rpc.system': 'aws-api',
      'rpc.service': 'S3',
      'rpc.method': 'PutObject',
      'aws.region': 'eu-west-1',
    },
  },
  {
    id: 'js-grpc',
    kind: 'Client',
    attrs: {
      'rpc.system': 'grpc',
      'rpc.service': 'shop.Inventory',
      'rpc.method': 'Reserve',
      'rpc.grpc.status_code': '0',
    },
  },
  {
    id: 'js-amqplib-publish',
    kind: 'Producer',
    attrs: { 'messaging.system': 'rabbitmq', 'messaging.destination': 'orders', 'net.peer.name': 'mq' },
  },
  // OpenTelemetry Python.
  {
    id: 'python-requests',
    kind: 'Client',
    attrs: { 'http.method': 'GET', 'http.url': 'http://inventory:8080/items', 'http.status_code': '200' },
  },
  {
    id: 'python-psycopg',
    kind: 'Client',
    attrs: {
      'db.system': 'postgresql',
      'db.name': 'shop',
      'db.user': 'app',
      'db.statement': 'SELECT 1',
      'net.peer.name': 'db',
    },
  },
  {
    id: 'python-botocore-dynamodb',
    kind: 'Client',
    attrs: {
      'rpc.system': 'aws-api',
      'rpc.service': 'DynamoDB',
      'rpc.method': 'GetItem',
      'db.system': 'dynamodb',
      'aws.region': 'eu-west-1',
      'aws.dynamodb.table_names': dynamoDbTable,
      'http.status_code': '200',
    },
  },
  {
    id: 'python-grpc',
    kind: 'Client',
    attrs: {
      'rpc.system': 'grpc',
      'rpc.service': 'shop.Inventory',
      'rpc.method': 'Reserve',
      'rpc.grpc.status_code': '0',
    },
  },
  {
    id: 'python-flask-server',
    kind: 'Server',
    attrs: {
      'http.method': 'POST',
      'http.route': '/orders',
      'http.status_code': '201',
      'http.scheme': 'http',
    },
  },
  // The OpenTelemetry Java agent 2.x: stable HTTP conventions; its AWS SDK spans also carry HTTP.
  {
    id: 'java-http-client',
    kind: 'Client',
    attrs: {
      'http.request.method': 'GET',
      'url.full': 'https://api.example.com/v1/items',
      'server.address': 'api.example.com',
      'server.port': '443',
      'http.response.status_code': '200',
      'network.protocol.version': '1.1',
    },
  },
  {
    id: 'java-jdbc',
    kind: 'Client',
    attrs: {
      'db.system': 'postgresql',
      'db.name': 'shop',
      'db.operation': 'SELECT',
      'db.sql.table': 'orders',
      'db.statement': 'select * from orders where id=?',
      'server.address': 'db',
    },
  },
  {
    id: 'java-jdbc-stable-semconv',
    kind: 'Client',
    attrs: {
      'db.system.name': 'postgresql',
      'db.namespace': 'shop',
      'db.query.text': 'select * from orders where id=?',
      'server.address': 'db',
    },
  },
  {
    id: 'java-aws-sdk2-dynamodb',
    kind: 'Client',
    attrs: {
      'rpc.system': 'aws-api',
      'rpc.service': 'DynamoDb',
      'rpc.method': 'PutItem',
      'db.system': 'dynamodb',
      'db.operation': 'PutItem',
      'aws.dynamodb.table_names': dynamoDbTable,
      'http.request.method': 'POST',
      'http.response.status_code': '200',
      'url.full': 'https://dynamodb.eu-west-1.amazonaws.com',
      'server.address': 'dynamodb.eu-west-1.amazonaws.com',
    },
  },
  {
    id: 'java-kafka-producer',
    kind: 'Producer',
    attrs: {
      'messaging.system': 'kafka',
      'messaging.destination.name': 'orders',
      'messaging.operation': 'publish',
    },
  },
  // Go: otelhttp, otelsql, otelgrpc on the RPC conventions that name the system rpc.system.name,
  // and otelaws.
  {
    id: 'go-otelhttp-client',
    kind: 'Client',
    attrs: {
      'http.method': 'GET',
      'http.url': 'http://ledger:8080/balance',
      'net.peer.name': 'ledger',
      'http.status_code': '200',
    },
  },
  {
    id: 'go-otelsql',
    kind: 'Client',
    attrs: { 'db.system': 'mysql', 'db.statement': 'SELECT 1' },
  },
  {
    id: 'go-otelgrpc-rpc-system-name',
    kind: 'Client',
    attrs: {
      'rpc.system.name': 'grpc',
      'rpc.method': 'shop.Inventory/Reserve',
      'server.address': 'inventory',
      'server.port': '50051',
    },
  },
  {
    id: 'go-otelaws-dynamodb-rpc-system-name',
    kind: 'Client',
    attrs: {
      'rpc.system.name': 'aws-api',
      'rpc.service': 'DynamoDB',
      'rpc.method': 'Query',
      'db.system.name': 'aws.dynamodb',
      'aws.dynamodb.table_names': dynamoDbTable,
    },
  },
  // .NET: HttpClient, SqlClient (both db conventions), the AWS SDK, gRPC, ASP.NET Core.
  {
    id: 'dotnet-httpclient',
    kind: 'Client',
    attrs: {
      'http.request.method': 'GET',
      'url.full': 'https://api.example.com/v1/items',
      'server.address': 'api.example.com',
      'http.response.status_code': '200',
      'network.protocol.version': '1.1',
    },
  },
  {
    id: 'dotnet-sqlclient',
    kind: 'Client',
    attrs: { 'db.system': 'mssql', 'db.name': 'shop', 'server.address': 'sql' },
  },
  {
    id: 'dotnet-sqlclient-stable-semconv',
    kind: 'Client',
    attrs: { 'db.system.name': 'microsoft.sql_server', 'db.namespace': 'shop', 'server.address': 'sql' },
  },
  {
    id: 'dotnet-aws-dynamodb',
    kind: 'Client',
    attrs: {
      'rpc.system': 'aws-api',
      'rpc.service': 'DynamoDBv2',
      'rpc.method': 'PutItem',
      'db.system': 'dynamodb',
      'aws.requestId': 'R1',
    },
  },
  {
    id: 'dotnet-grpc',
    kind: 'Client',
    attrs: {
      'rpc.system': 'grpc',
      'rpc.service': 'shop.Inventory',
      'rpc.method': 'Reserve',
      'rpc.grpc.status_code': '0',
      'server.address': 'inventory',
    },
  },
  {
    id: 'dotnet-aspnetcore-server',
    kind: 'Server',
    attrs: {
      'http.request.method': 'GET',
      'url.path': '/orders',
      'url.scheme': 'https',
      'http.route': '/orders',
      'http.response.status_code': '200',
    },
  },
  // A span that carries HTTP attributes but no method (a client whose instrumentation records the
  // URL and status only): the rule asks for the method.
  {
    id: 'http-without-method',
    kind: 'Client',
    attrs: { 'http.url': 'https://api.example.com/v1/items', 'http.status_code': '200' },
  },
  // The Faultline preload, as it exports: a success leaves faultline.source off the wire (it follows
  // from the span); a failure's envelope names it; a transport request inside an SDK operation.
  {
    id: 'preload-dynamodb-success',
    kind: 'Client',
    attrs: {
      'rpc.system': 'aws-api',
      'rpc.service': 'DynamoDB',
      'rpc.method': 'PutItem',
      'db.system': 'dynamodb',
      'faultline.correlation_id': 'wf-1',
    },
  },
  {
    id: 'preload-dynamodb-failure',
    kind: 'Client',
    attrs: {
      'rpc.system': 'aws-api',
      'rpc.service': 'DynamoDB',
      'rpc.method': 'PutItem',
      'db.system': 'dynamodb',
      'faultline.correlation_id': 'wf-1',
      'faultline.class': 'rate_limit',
      'faultline.source': 'sdk',
      'faultline.code': 'ThrottlingException',
      'faultline.retryable': 'true',
    },
  },
  {
    id: 'preload-pg-failure',
    kind: 'Client',
    attrs: {
      'db.system.name': 'postgresql',
      'db.namespace': 'shop',
      'faultline.class': 'validation',
      'faultline.source': 'db',
      'faultline.code': '23505',
      'faultline.retryable': 'false',
    },
  },
  {
    id: 'preload-sdk-transport',
    kind: 'Client',
    attrs: {
      'http.request.method': 'POST',
      'url.full': 'https://dynamodb.eu-west-1.amazonaws.com/',
      'faultline.call_role': 'transport',
    },
  },
  { id: 'internal-no-attributes', kind: 'Internal', attrs: {} },
];
