/**
 * The failures after which this process must not go on serving: the projector stopped
 * (read models out of step with the log), the writer stopped for good (fenced by another
 * writer, an unrecoverable append error), the data directory's lock was lost, or a
 * replica's log (or the webhook worker's subscription to it) can no longer be followed. Each is raised here once; the service's
 * entry point exits non-zero on the first, so a supervisor (docker's `restart:`,
 * systemd, Kubernetes) starts it afresh, which rebuilds everything from the log.
 */
export interface Fatal {
  /** What stopped, in words an operator reads in the log. */
  reason: string;
  error: Error;
}

export class FatalSignal {
  readonly raised: Promise<Fatal>;
  private first: Fatal | null = null;
  private resolve!: (fatal: Fatal) => void;

  constructor() {
    this.raised = new Promise((resolve) => (this.resolve = resolve));
  }

  /** The first fatal failure, or null while there has been none. */
  get current(): Fatal | null {
    return this.first;
  }

  raise(reason: string, error: unknown): void {
    if (this.first) return;
    this.first = { reason, error: error instanceof Error ? error : new Error(String(error)) };
    this.resolve(this.first);
  }
}
