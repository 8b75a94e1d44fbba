/**
 * MongoDB Node driver error classes, reproduced from mongodb/node-mongodb-native src/error.ts (v6) because
 * the driver is not installed here. What matters for classification is kept exactly: `name` is a prototype
 * getter (not an own property), error labels live behind a Symbol and surface only through the
 * `errorLabels` getter / `hasErrorLabel()`, and MongoServerError copies every field of the server reply.
 */

const kErrorLabels = Symbol('errorLabels');

export class MongoError extends Error {
  [kErrorLabels]: Set<string>;
  code?: number | string;

  constructor(message: string, options?: { cause?: Error }) {
    super(message, options);
    this[kErrorLabels] = new Set();
  }

  override get name(): string {
    return 'MongoError';
  }

  get errmsg(): string {
    return this.message;
  }

  hasErrorLabel(label: string): boolean {
    return this[kErrorLabels].has(label);
  }

  addErrorLabel(label: string): void {
    this[kErrorLabels].add(label);
  }

  get errorLabels(): string[] {
    return Array.from(this[kErrorLabels]);
  }
}

export interface ErrorDescription {
  message?: string;
  errmsg?: string;
  $err?: string;
  errorLabels?: string[];
  [key: string]: unknown;
}

export class MongoServerError extends MongoError {
  errorResponse: ErrorDescription;
  [key: string]: unknown;

  constructor(message: ErrorDescription) {
    super(message.message || message.errmsg || message.$err || 'n/a');
    if (message.errorLabels) {
      this[kErrorLabels] = new Set(message.errorLabels);
    }
    this.errorResponse = message;
    for (const name in message) {
      if (name !== 'errorLabels' && name !== 'errmsg' && name !== 'message' && name !== 'errorResponse') {
        this[name] = message[name];
      }
    }
  }

  override get name(): string {
    return 'MongoServerError';
  }
}

export class MongoNetworkError extends MongoError {
  constructor(message: string, options?: { beforeHandshake?: boolean; cause?: Error }) {
    super(message, { cause: options?.cause as Error });
  }

  override get name(): string {
    return 'MongoNetworkError';
  }
}

/** The parts of a TopologyDescription that MongoSystemError reads. */
export interface TopologyDescriptionLike {
  type: string;
  servers: Map<string, unknown>;
  error?: MongoError;
}

export class MongoSystemError extends MongoError {
  reason?: TopologyDescriptionLike;

  constructor(message: string, reason: TopologyDescriptionLike) {
    if (reason?.error) {
      super(reason.error.message, { cause: reason.error });
    } else {
      super(message);
    }
    if (reason) this.reason = reason;
    this.code = reason.error?.code;
  }

  override get name(): string {
    return 'MongoSystemError';
  }
}

export class MongoServerSelectionError extends MongoSystemError {
  override get name(): string {
    return 'MongoServerSelectionError';
  }
}
