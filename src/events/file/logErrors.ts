/** The log is damaged (not just a torn tail): nothing was cut; open() refuses to continue. */
export class EventLogCorruptError extends Error {}

/** The log refused an append because an earlier write or fsync failed with a logic error (fail-stop). */
export class EventLogFailedError extends Error {}

/** The storage cannot take appends for now (disk full, I/O error); recover() may end it. */
export class EventLogUnavailableError extends Error {}
