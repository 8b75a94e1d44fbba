/**
 * What client libraries' errors say in their messages, for spans whose instrumentation kept only
 * the text (status message, `exception.message`) and not the error's own fields. Each table
 * names the library source it copies; the classifiers then read the recovered field exactly as
 * they read the library's error object.
 */

/**
 * KafkaJS protocol errors: instrumentation-kafkajs records `error.type` = the class name
 * (KafkaJSProtocolError) and the message, never the broker's `type`. The messages are kafkajs's
 * own per error code (src/protocol/error.js), with the type and `retriable` flag next to them.
 */
export const KAFKA_TYPE_BY_TEXT: Record<string, readonly [string, boolean]> = {
  'This server does not host this topic-partition': ['UNKNOWN_TOPIC_OR_PARTITION', true],
  'This server is not the leader for that topic-partition': ['NOT_LEADER_FOR_PARTITION', true],
  'The request timed out': ['REQUEST_TIMED_OUT', true],
  'Messages are rejected since there are fewer in-sync replicas than required': ['NOT_ENOUGH_REPLICAS', true],
  'The request included a message larger than the max message size the server will accept': [
    'MESSAGE_TOO_LARGE',
    false,
  ],
  'Not authorized to access topics: [Topic authorization failed]': ['TOPIC_AUTHORIZATION_FAILED', false],
  'Not authorized to access group: Group authorization failed': ['GROUP_AUTHORIZATION_FAILED', false],
  'SASL Authentication failed': ['SASL_AUTHENTICATION_FAILED', false],
};

/**
 * node-redis client errors keep `name` "Error" (their class is only the constructor), so a span
 * records exception.type "Error": the text (@redis/client dist/lib/errors.js) names the class.
 */
export const NODE_REDIS_NAME_BY_TEXT: ReadonlyArray<readonly [RegExp, string]> = [
  [/^Command timed out after \d+ms waiting for a reply/, 'TimeoutReadError'],
  [/^Command timed out after \d+ms waiting to be sent/, 'TimeoutError'],
  [/^Socket timeout timeout\. Expecting data/, 'SocketTimeoutError'],
  [/^Connection timeout$/, 'ConnectionTimeoutError'],
  [/^Socket closed unexpectedly$/, 'SocketClosedUnexpectedlyError'],
  [/^The client is closed$/, 'ClientClosedError'],
];

/** mysql (v1) client errors whose message carries no `CODE:` prefix (lib/protocol/Protocol.js, lib/Pool.js). */
export const MYSQL_CLIENT_CODE_BY_TEXT: Record<string, string> = {
  'Query inactivity timeout': 'PROTOCOL_SEQUENCE_TIMEOUT',
  'Connection lost: The server closed the connection.': 'PROTOCOL_CONNECTION_LOST',
  'Queue limit reached.': 'POOL_ENQUEUELIMIT',
  'Pool is closed.': 'POOL_CLOSED',
};

/** MongoDB server messages (the server's own errmsg): instrumentation-mongodb keeps only the text. */
export const MONGO_CODE_BY_TEXT: ReadonlyArray<readonly [RegExp, number]> = [
  [/^E11000 duplicate key error/, 11000],
  [/^Authentication failed\.?$/, 18],
  [/^WriteConflict\b|Write conflict during plan execution/, 112],
  [/operation exceeded time limit/, 50],
  [/^not primary\b|^not master\b/, 10107],
];

/**
 * mqtt.js texts ("Connection refused: …", "Subscribe error: …", "Publish error: …") end with the
 * reason's name from its ReasonCodes table (build/lib/handlers/ack.js). A SUBACK refusal has no
 * `code` (ErrorWithSubackPacket), so exception.type holds the class name and only the text says
 * which reason; MQTT 5 numbering, as the preload reads `packet.granted`.
 */
export const MQTT_REASON_BY_TEXT: Record<string, number> = {
  'Unspecified error': 128,
  'Malformed Packet': 129,
  'Protocol Error': 130,
  'Bad User Name or Password': 134,
  'Not authorized': 135,
  'Server unavailable': 136,
  'Server busy': 137,
  Banned: 138,
  'Topic Filter invalid': 143,
  'Topic Name invalid': 144,
  'Quota exceeded': 151,
  'Wildcard Subscriptions not supported': 162,
};
export const MQTT_TEXT = /^(?:Connection refused|Subscribe error|Publish error): (.+)$/;

/**
 * instrumentation-pg records a sanitized exception for a pool checkout or connect failure
 * ("PostgreSQL error of type 'Error' occurred (code: ECONNREFUSED)", utils.sanitizedErrorMessage)
 * and the driver's own message as the span's status message.
 */
export const PG_SANITIZED = /^PostgreSQL error of type '([^']*)' occurred \(code: ([^)]*)\)$/;
