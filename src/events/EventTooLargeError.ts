/**
 * An event larger than the event log accepts: nothing of the request is written. It
 * carries an HTTP status so the API answers 413 with its message as `detail`.
 */
export class EventTooLargeError extends Error {
  readonly status = 413;
  readonly expose = true;

  constructor(
    readonly bytes: number,
    readonly limitBytes: number,
    what: string,
  ) {
    super(
      `The change to ${what} is ${formatBytes(bytes)} once recorded, more than the event log accepts for one change (${formatBytes(limitBytes)}); nothing was written.`,
    );
  }
}

function formatBytes(bytes: number): string {
  if (bytes >= 1 << 20) return `${(bytes / (1 << 20)).toFixed(1)} MiB`;
  if (bytes >= 1 << 10) return `${(bytes / (1 << 10)).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
