/**
 * An append whose outcome could not be learnt in time: its commit failed and the log could
 * not be read again, so its events may be durable or not. It must be answered as neither a
 * failure (a client would repeat a write that may be there) nor a success.
 */
export class AppendOutcomeUnknownError extends Error {}
