/**
 * What a failed transaction means for the writer: `fenced` when a newer writer holding
 * the same transactional id took over (final: only a restart takes over again), else
 * `retry`: the transaction's outcome is settled by registering the id again and reading
 * the log (a lost commit answer, a broker or partition outage, a transaction the broker
 * timed out, a transactional id the coordinator forgot after a long idle time). A
 * writer with a lease asks it before that registration, since a `retry` can still hide a
 * takeover (TransactionalWriter.refuseIfSupplanted()).
 */
export type TransactionFailure = 'fenced' | 'retry';

export function transactionFailure(
  error: unknown,
  elapsedMs: number,
  transactionTimeoutMs: number,
): TransactionFailure {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { type, code, message } = e as { type?: unknown; code?: unknown; message?: unknown };
    // Newer request versions name fencing for what it is; the library predates the code
    // and raises it as an unknown one.
    if (
      type === 'PRODUCER_FENCED' ||
      code === 90 ||
      (typeof message === 'string' && /^Unknown error code 90$/.test(message))
    )
      return 'fenced';
    // The old request versions kafkajs speaks get INVALID_PRODUCER_EPOCH both when a newer
    // writer bumped the epoch and when the broker aborted this writer's transaction as
    // timed out (which bumps the epoch too). Before the timeout only fencing can be meant.
    // After it either can, or both (a writer took over while the transaction hung): the
    // error cannot tell, so it is 'retry', and before registering the id again the writer
    // asks its lease whether a newer writer is there (TransactionalWriter.refuseIfSupplanted()).
    if (type === 'INVALID_PRODUCER_EPOCH' || code === 47) return elapsedMs >= transactionTimeoutMs ? 'retry' : 'fenced';
  }
  return 'retry';
}
