/** How long to wait before attempt `attempt + 1`, after `attempt` failed ones: doubling from `baseMs`, never above `maxMs`. */
export function retryDelay(attempt: number, baseMs: number, maxMs: number): number {
  if (attempt < 1) return 0;
  return Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 40));
}

/** Whether a delivery that failed `attempts` times is given up (0: never). */
export function exhausted(attempts: number, maxAttempts: number): boolean {
  return maxAttempts > 0 && attempts >= maxAttempts;
}
