/**
 * A read the store could not answer in time (a query past its time limit, a database
 * that cannot be reached): the request gets 503 with a Retry-After instead of waiting
 * without bound or failing with an opaque 500.
 */
export class ReadStoreUnavailableError extends Error {
  readonly status = 503;
  constructor(
    message: string,
    readonly retryAfterSeconds = 5,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ReadStoreUnavailableError';
  }
}
