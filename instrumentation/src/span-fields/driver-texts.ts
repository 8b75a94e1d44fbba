/**
 * Server error numbers behind MySQL/MariaDB and SQL Server texts, for spans that carry only a
 * message. MySQL: "Server Error Message Reference" (ER_LOCK_DEADLOCK 1213 "Deadlock found when
 * trying to get lock", ER_LOCK_WAIT_TIMEOUT 1205, ER_DUP_ENTRY 1062 …). SQL Server: "Database
 * engine events and errors" (1205 deadlock victim, 2627/2601 duplicate key, 18456 login failed …).
 */
export const MYSQL_ERRNO_BY_TEXT: ReadonlyArray<readonly [RegExp, number]> = [
  [/Deadlock found when trying to get lock/i, 1213],
  [/Lock wait timeout exceeded/i, 1205],
  [/Duplicate entry '.*' for key/i, 1062],
  [/Access denied for user/i, 1045],
  [/Too many connections/i, 1040],
  [/Table '[^']*' doesn't exist/i, 1146],
  [/Unknown column '[^']*'/i, 1054],
  [/You have an error in your SQL syntax/i, 1064],
  [/Cannot add or update a child row: a foreign key constraint fails/i, 1452],
  [/Query execution was interrupted, maximum statement execution time exceeded/i, 3024],
];

/**
 * A MySQL number stated in the text: mysql-connector-python "1213 (40001): …", Go's
 * go-sql-driver "Error 1213 (40001): …" (older "Error 1213: …"), mysqlclient "(1213, '…')".
 */
export const MYSQL_ERRNO_IN_TEXT = /^(?:Error )?(\d{4,5})(?: \(([0-9A-Z]{5})\))?: |^\((\d{4,5}), ['"]/;

export const MSSQL_NUMBER_BY_TEXT: ReadonlyArray<readonly [RegExp, number]> = [
  [/was deadlocked on lock(?: | communication buffer )?resources/i, 1205],
  [/Violation of PRIMARY KEY constraint|Violation of UNIQUE KEY constraint/i, 2627],
  [/Cannot insert duplicate key row/i, 2601],
  [/Login failed for user/i, 18456],
  [/Invalid object name/i, 208],
  [/Invalid column name/i, 207],
  [/Incorrect syntax near/i, 102],
  [/conflicted with the (FOREIGN KEY|REFERENCE) constraint/i, 547],
  [/Cannot open database/i, 4060],
  [/Lock request time out period exceeded/i, 1222],
];

/**
 * Socket failures in each runtime's words → the Node code the classifiers know. Node "connect
 * ECONNREFUSED …"; Python "[Errno 111] Connection refused"; Go "dial tcp …: connect: connection
 * refused"; Java java.net.ConnectException "Connection refused"; .NET SocketException
 * "Connection refused (host:port)". Timeouts: Go "context deadline exceeded" / "i/o timeout", Java
 * SocketTimeoutException "Read timed out", Python "Read timed out." / "timed out". DNS: Go "no such
 * host", glibc "Name or service not known", Java UnknownHostException.
 */
export const NODE_SOCKET_CODE =
  /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE)\b/;

export const SOCKET_CODE_BY_TEXT: ReadonlyArray<readonly [RegExp, string]> = [
  [/connection refused/i, 'ECONNREFUSED'],
  [/connection reset by peer|Connection reset\b/i, 'ECONNRESET'],
  [/broken pipe/i, 'EPIPE'],
  [
    /no such host|Name or service not known|nodename nor servname|UnknownHostException|getaddrinfo failed/i,
    'ENOTFOUND',
  ],
  [/no route to host/i, 'EHOSTUNREACH'],
  [/network is unreachable/i, 'ENETUNREACH'],
  [/context deadline exceeded|i\/o timeout|timed out|SocketTimeoutException|TimeoutException/i, 'ETIMEDOUT'],
];

/**
 * The AWS error code in an SDK's message: botocore ClientError "An error occurred
 * (ThrottlingException) when calling the PutItem operation …" (botocore/exceptions.py), Go
 * aws-sdk-go-v2 "… api error ThrottlingException: Rate exceeded" (smithy-go OperationError).
 */
export const AWS_CODE_IN_TEXT =
  /An error occurred \(([A-Za-z0-9._]+)\) when calling|api error ([A-Za-z0-9._]+):/;
