/**
 * Slows down password guessing (token provisioning and the login form) without ever
 * locking anyone out for good. Failures are counted per username and per client
 * address; past a few free failures each new one blocks that key for an exponentially
 * growing time, capped (so the real user waits at most the cap), and counters are
 * forgotten after a quiet period or a success. Blocked attempts are answered at once,
 * without checking the password (no scrypt work for the attacker) and without counting.
 *
 * A (username, address) pair that has logged in before is judged by a counter of its own,
 * with a larger allowance, instead of the username's: someone hammering the username from
 * elsewhere cannot keep its owner out, yet the pair is never exempt, since whoever sits
 * at that address (or shares it) may not be the owner. The address's limit applies to
 * every attempt. A success resets the username's and the pair's counters but not the
 * address's: logging into one's own account does not buy more guesses at others.
 */

export interface LimitPolicy {
  /** Failures allowed before any delay. */
  free: number;
  /** Delay after the first failure beyond `free`; doubles with each further one. */
  baseMs: number;
  /** Longest delay. */
  capMs: number;
  /** A key with no failure for this long starts afresh. */
  forgetMs: number;
}

export const DEFAULT_USER_POLICY: LimitPolicy = { free: 5, baseMs: 1_000, capMs: 5 * 60_000, forgetMs: 60 * 60_000 };
export const DEFAULT_ADDRESS_POLICY: LimitPolicy = {
  free: 20,
  baseMs: 1_000,
  capMs: 15 * 60_000,
  forgetMs: 60 * 60_000,
};

/** A known-good pair's allowance: twice the username's free failures, the same delays. */
export function knownPairPolicy(userPolicy: LimitPolicy): LimitPolicy {
  return { ...userPolicy, free: userPolicy.free * 2 };
}

/** Keys remembered per limiter; the least recently failed are dropped beyond it. */
const MAX_KEYS = 10_000;

interface Record {
  failures: number;
  lastFailure: number;
  blockedUntil: number;
}

class Limiter {
  private readonly records = new Map<string, Record>();

  constructor(private readonly policy: LimitPolicy) {}

  private current(key: string, now: number): Record | undefined {
    const record = this.records.get(key);
    if (record && now - record.lastFailure >= this.policy.forgetMs) {
      this.records.delete(key);
      return undefined;
    }
    return record;
  }

  /** Milliseconds until `key` may try again (0: now). */
  wait(key: string, now: number): number {
    const record = this.current(key, now);
    return record ? Math.max(0, record.blockedUntil - now) : 0;
  }

  fail(key: string, now: number): void {
    const record = this.current(key, now) ?? { failures: 0, lastFailure: now, blockedUntil: 0 };
    record.failures += 1;
    record.lastFailure = now;
    const over = record.failures - this.policy.free;
    if (over >= 0)
      record.blockedUntil = now + Math.min(this.policy.capMs, this.policy.baseMs * 2 ** Math.min(over, 40));
    this.records.delete(key);
    this.records.set(key, record);
    if (this.records.size > MAX_KEYS) this.records.delete(this.records.keys().next().value!);
  }

  forget(key: string): void {
    this.records.delete(key);
  }
}

export class LoginThrottle {
  private readonly users: Limiter;
  private readonly addresses: Limiter;
  private readonly knownPairs: Limiter;
  private readonly knownGood = new Set<string>();

  constructor(
    userPolicy: LimitPolicy = DEFAULT_USER_POLICY,
    addressPolicy: LimitPolicy = DEFAULT_ADDRESS_POLICY,
    pairPolicy: LimitPolicy = knownPairPolicy(userPolicy),
  ) {
    this.users = new Limiter(userPolicy);
    this.addresses = new Limiter(addressPolicy);
    this.knownPairs = new Limiter(pairPolicy);
  }

  private static userKey(username: string): string {
    return username.toLowerCase();
  }

  private static pair(username: string, address: string): string {
    return `${username.toLowerCase()}\0${address}`;
  }

  /** Milliseconds the attempt must wait (0: go ahead and check the password). */
  wait(username: string, address: string, now: number): number {
    const pair = LoginThrottle.pair(username, address);
    const account = this.knownGood.has(pair)
      ? this.knownPairs.wait(pair, now)
      : this.users.wait(LoginThrottle.userKey(username), now);
    return Math.max(this.addresses.wait(address, now), account);
  }

  failure(username: string, address: string, now: number): void {
    this.users.fail(LoginThrottle.userKey(username), now);
    this.addresses.fail(address, now);
    const pair = LoginThrottle.pair(username, address);
    if (this.knownGood.has(pair)) this.knownPairs.fail(pair, now);
  }

  success(username: string, address: string): void {
    this.users.forget(LoginThrottle.userKey(username));
    const pair = LoginThrottle.pair(username, address);
    this.knownPairs.forget(pair);
    this.knownGood.delete(pair);
    this.knownGood.add(pair);
    if (this.knownGood.size > MAX_KEYS) this.knownGood.delete(this.knownGood.values().next().value!);
  }
}
