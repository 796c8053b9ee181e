/**
 * Which MongoDB failures heal by themselves. Applying a batch is idempotent (every
 * write is guarded by the position that last wrote the document), so any of them
 * can be answered by applying the batch again; everything else (a refused command,
 * a document the server rejects, a write concern the deployment cannot satisfy, a
 * client closed on shutdown) stops the projector.
 */
import {
  MongoBulkWriteError,
  MongoError,
  MongoNetworkError,
  MongoServerError,
  MongoServerSelectionError,
  MongoWriteConcernError,
} from 'mongodb';

export const DUPLICATE_KEY = 11000;
export const MAX_TIME_MS_EXPIRED = 50;

const TRANSIENT_LABELS = ['TransientTransactionError', 'UnknownTransactionCommitResult', 'RetryableWriteError'];

/**
 * Server codes of elections, shutdowns, lost connections, timeouts and write conflicts,
 * also as the code of a write-concern error. Any other write-concern error (79
 * UnknownReplWriteConcern, 100 UnsatisfiableWriteConcern, a malformed one) says the
 * deployment can never satisfy the write concern: its configuration, not a moment's.
 */
const TRANSIENT_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  64, // WriteConcernFailed (not yet replicated in time: written again, idempotently)
  89, // NetworkTimeout
  91, // ShutdownInProgress
  112, // WriteConflict
  189, // PrimarySteppedDown
  251, // NoSuchTransaction (the server dropped it, e.g. after an election)
  262, // ExceededTimeLimit
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
  134, // ReadConcernMajorityNotAvailableYet
]);

export function isTransientMongoError(error: unknown): boolean {
  if (error instanceof MongoNetworkError || error instanceof MongoServerSelectionError) return true;
  if (!(error instanceof MongoError)) return false;
  if (TRANSIENT_LABELS.some((label) => error.hasErrorLabel(label))) return true;
  if (error instanceof MongoBulkWriteError) {
    const wrapped = wrappedDriverError(error);
    if (wrapped) return isTransientMongoError(wrapped);
    // Write errors name the documents refused (a duplicate key is a skipped stale upsert); transient only when every one is.
    const refused = writeErrorsOf(error).filter((e) => e.code !== DUPLICATE_KEY);
    if (refused.length > 0) return refused.every((e) => TRANSIENT_CODES.has(e.code));
  }
  const concern = writeConcernCode(error);
  if (concern !== undefined) return TRANSIENT_CODES.has(concern);
  if (error instanceof MongoServerError && typeof error.code === 'number') return TRANSIENT_CODES.has(error.code);
  return false;
}

/**
 * The code of the write-concern error a failure reports, as the driver finds it: the
 * server's `writeConcernError` (a MongoWriteConcernError, whose own code a mongos may have
 * replaced), or the one a bulk write keeps in its result.
 */
export function writeConcernCode(error: MongoError): number | undefined {
  let code: unknown;
  if (error instanceof MongoWriteConcernError) code = error.result?.writeConcernError?.code ?? error.code;
  else if (error instanceof MongoBulkWriteError) code = error.result?.getWriteConcernError?.()?.code ?? error.err?.code;
  return typeof code === 'number' && !Number.isNaN(code) ? code : undefined;
}

/** A write concern the deployment can never satisfy: the projector stops, saying what to check. */
export class WriteConcernRefusedError extends Error {
  constructor(
    readonly code: number,
    cause: MongoError,
  ) {
    super(
      `MongoDB cannot satisfy the write concern the read models are written with (code ${code}: ${cause.message}). ` +
        "This is the deployment's configuration, not a passing failure, so it is not retried: check that the replica set has " +
        'a majority of data-bearing voting members with journaling, and any w= or journal= in MONGODB_URL.',
      { cause },
    );
    this.name = 'WriteConcernRefusedError';
  }
}

/** The failure as the projector reports it: a refused write concern said plainly, anything else as it is. */
export function explainedMongoError(error: unknown): unknown {
  if (!(error instanceof MongoError) || isTransientMongoError(error)) return error;
  const code = writeConcernCode(error);
  return code === undefined ? error : new WriteConcernRefusedError(code, error);
}

/**
 * The failure a bulk write hides inside its MongoBulkWriteError: the driver wraps whatever
 * stopped the command itself (a lost connection, no primary to select) in one, keeping the
 * original only as `errorResponse` (its labels are copied, its class is not).
 */
function wrappedDriverError(error: MongoBulkWriteError): MongoError | null {
  const original = error.errorResponse as unknown;
  return original instanceof MongoError && original !== error ? original : null;
}

export function writeErrorsOf(error: MongoBulkWriteError): Array<{ code: number }> {
  const raw = error.writeErrors as unknown;
  if (raw === undefined || raw === null) return [];
  return (Array.isArray(raw) ? raw : [raw]) as Array<{ code: number }>;
}

/**
 * A bulk write whose only failures are guarded upserts that met a document already
 * written at a newer position (the guard matched nothing, the insert hit the _id
 * index): those changes are correctly skipped, the rest was written.
 */
export function isSkippedStaleUpsertsOnly(error: unknown): boolean {
  if (!(error instanceof MongoBulkWriteError) || error.err || error.result?.getWriteConcernError?.()) return false;
  const writeErrors = writeErrorsOf(error);
  return writeErrors.length > 0 && writeErrors.every((e) => e.code === DUPLICATE_KEY);
}

export function isTimeLimitError(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === MAX_TIME_MS_EXPIRED;
}
