/** Why a request body could not become rows; `status` is the HTTP status the receiver answers. */
export class OtlpDecodeError extends Error {
  readonly status: number;

  constructor(message: string, status = 400) {
    super(message);
    this.name = 'OtlpDecodeError';
    this.status = status;
  }
}
