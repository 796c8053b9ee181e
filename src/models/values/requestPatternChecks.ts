import type { PatternCheck, PatternChecker, PatternVerdict } from './patternChecks.js';

/**
 * The pattern checks of one bulk request: those of all its items sent off the event loop
 * as one job before the items are decided (prefetch), their verdicts then answered from
 * here, so a request of a thousand long values costs one round trip to the pattern process,
 * not a thousand. Once a check of the request reaches a limit, no further check of it is
 * made (the request is refused anyway): a bulk request of values that each reach
 * TEMPLATE_TIMEOUT would otherwise hold the writer for that long per item.
 */
export class RequestPatternChecks implements PatternChecker {
  private readonly verdicts = new Map<string, PatternVerdict>();
  private limitReached: string | null = null;

  constructor(private readonly checker: PatternChecker) {}

  async prefetch(checks: PatternCheck[]): Promise<void> {
    const fresh = checks.filter((check) => !this.verdicts.has(keyOf(check)));
    if (fresh.length > 0) this.remember(fresh, await this.checker.matchAll(fresh));
  }

  async matchAll(checks: PatternCheck[]): Promise<PatternVerdict[]> {
    const missing = checks.filter((check) => !this.verdicts.has(keyOf(check)));
    if (missing.length > 0) {
      if (this.limitReached === null) this.remember(missing, await this.checker.matchAll(missing));
      else for (const check of missing) this.verdicts.set(keyOf(check), { limit: this.limitReached });
    }
    return checks.map((check) => this.verdicts.get(keyOf(check)) ?? null);
  }

  patternProblem(pattern: string): Promise<string | null> {
    return this.checker.patternProblem(pattern);
  }

  private remember(checks: PatternCheck[], verdicts: PatternVerdict[]): void {
    checks.forEach((check, i) => {
      const verdict = verdicts[i] ?? null;
      if (verdict === null) return; // not checked: asked again when its item is decided
      this.verdicts.set(keyOf(check), verdict);
      if (typeof verdict === 'object')
        this.limitReached ??= `was not made, as another of the same request ${verdict.limit}`;
    });
  }
}

function keyOf({ pattern, value }: PatternCheck): string {
  return `${pattern.length}:${pattern}${value}`;
}
