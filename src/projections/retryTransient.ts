/**
 * Retrying an idempotent operation through a passing outage. A read model that
 * cannot be written stops the projector, and with it every write of the service:
 * for failures that heal by themselves (a dropped connection, an election, a
 * write conflict) that stop would be worse than the wait. Only those are retried,
 * with a growing delay, and only for a bounded time, after which the failure is
 * final so that everyone waiting on the projector gets an answer.
 */

export interface RetryPolicy {
  /** Delay before the first retry. */
  firstDelayMs: number;
  /** Delays double up to this. */
  maxDelayMs: number;
  /** No retry starts once this long has passed since the first attempt. */
  budgetMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { firstDelayMs: 100, maxDelayMs: 5_000, budgetMs: 60_000 };

export interface RetryHooks {
  /** Called before each wait, with the failure that caused it. */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
  /** Aborting stops the retries (the store is closing): the last failure is thrown. */
  signal?: AbortSignal;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The failure after which retrying stopped: the time budget ran out while the cause persisted. */
export class RetriesExhaustedError extends Error {
  constructor(
    readonly attempts: number,
    readonly elapsedMs: number,
    readonly lastError: unknown,
  ) {
    super(
      `still failing after ${attempts} attempts over ${Math.round(elapsedMs)} ms: ${lastError instanceof Error ? lastError.message : String(lastError)}`,
      {
        cause: lastError,
      },
    );
    this.name = 'RetriesExhaustedError';
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Runs `attempt` until it succeeds, fails with a non-transient error (thrown as is),
 * or transient failures outlast the budget (a RetriesExhaustedError).
 */
export async function retryTransient<T>(
  attempt: () => Promise<T>,
  isTransient: (error: unknown) => boolean,
  policy: RetryPolicy,
  hooks: RetryHooks = {},
): Promise<T> {
  const now = hooks.now ?? Date.now;
  const wait = hooks.sleep ?? sleep;
  const started = now();
  let delay = policy.firstDelayMs;
  for (let attempts = 1; ; attempts++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isTransient(error) || hooks.signal?.aborted) throw error;
      const elapsed = now() - started;
      if (elapsed + delay > policy.budgetMs) throw new RetriesExhaustedError(attempts, elapsed, error);
      hooks.onRetry?.({ attempt: attempts, delayMs: delay, error });
      await wait(delay, hooks.signal);
      if (hooks.signal?.aborted) throw error;
      delay = Math.min(delay * 2, policy.maxDelayMs);
    }
  }
}
