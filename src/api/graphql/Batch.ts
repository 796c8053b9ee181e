/**
 * Lookups a GraphQL level asks for one by one, answered together: graphql-js resolves
 * every field of a level before the next one, so a batch flushed after the current
 * microtasks holds the whole level's keys (no N+1).
 */
/** A batch of keys answered together once the current level has asked for everything it needs. */
export class Batch<K, V> {
  private pending = new Map<K, Array<(value: V) => void>>();
  private failures = new Map<K, Array<(error: unknown) => void>>();
  private scheduled = false;

  constructor(
    private readonly answer: (keys: K[]) => Promise<Map<K, V>>,
    private readonly missing: V,
  ) {}

  load(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      const waiting = this.pending.get(key);
      if (waiting) {
        waiting.push(resolve);
        this.failures.get(key)!.push(reject);
      } else {
        this.pending.set(key, [resolve]);
        this.failures.set(key, [reject]);
      }
      if (!this.scheduled) {
        this.scheduled = true;
        // After every microtask of this level: graphql-js asks for all the level's fields first.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const pending = this.pending;
    const failures = this.failures;
    this.pending = new Map();
    this.failures = new Map();
    this.scheduled = false;
    try {
      const answers = await this.answer([...pending.keys()]);
      for (const [key, resolvers] of pending) {
        const value = answers.has(key) ? answers.get(key)! : this.missing;
        for (const resolve of resolvers) resolve(value);
      }
    } catch (error) {
      for (const rejects of failures.values()) for (const reject of rejects) reject(error);
    }
  }
}
