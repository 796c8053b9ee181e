/**
 * A read of past events the event log could not answer in time (Kafka: the partition's
 * leader unreachable): the request that needed it (change records, history, `?as_of=`) is
 * answered 503 with a Retry-After instead of hanging until the broker comes back.
 */
export class LogReadUnavailableError extends Error {
  override readonly name = 'LogReadUnavailableError';
  readonly retryAfterSeconds = 5;
}
