import { TemplateError } from '../templates/TemplateError.js';
import { TemplatePool } from '../templates/TemplatePool.js';
import type { TemplateLimits } from '../templates/TemplateRenderer.js';
import { type Verdict, verdictOf } from './conditionVerdicts.js';

/**
 * Evaluates the stored conditions of the webhooks a change is due to. Conditions are
 * written by any user allowed to add webhooks and run against values any writer controls,
 * so the service runs them in a separate process (IsolatedConditions); the unit tests of
 * the worker evaluate them inline.
 */
export interface ConditionsEvaluator {
  /** One verdict per rule set, in order, on the changed object's API form. */
  verdicts(ruleSets: unknown[], data: Record<string, unknown>): Promise<Verdict[]>;
  close(): Promise<void>;
}

/** On the calling thread: for tests of the worker, whose conditions are their own. */
export const inlineConditions: ConditionsEvaluator = {
  verdicts: async (ruleSets, data) => ruleSets.map((conditions) => verdictOf(conditions, data)),
  close: async () => {},
};

/**
 * In a process of its own (TemplatePool's machinery: an empty environment, a heap limit,
 * killed and replaced past the time limit). A change's rule sets go as one job; if that
 * job hits a limit (or kills its process), each is evaluated alone, so only the rule sets
 * that do are failed, and the others are judged as usual.
 */
export class IsolatedConditions implements ConditionsEvaluator {
  private readonly pool: TemplatePool;

  constructor(limits: Pick<TemplateLimits, 'timeoutMs' | 'memoryMb'>) {
    // One process: a change's rule sets go together, and the worker dispatches one change at a time.
    const settings = { ...limits, outputMb: 64, workers: 1, queue: 1_000 };
    this.pool = new TemplatePool(settings, new URL('./conditionsProcess.js', import.meta.url));
  }

  async verdicts(ruleSets: unknown[], data: Record<string, unknown>): Promise<Verdict[]> {
    try {
      return await this.evaluate(ruleSets, data);
    } catch (error) {
      // A limit, or the process dying under the job: the rule sets' own doing. Anything
      // else (the pool closed as the service stops) is not a verdict.
      if (!(error instanceof TemplateError)) throw error;
      if (ruleSets.length === 1) return [{ failed: error.message }];
    }
    const verdicts: Verdict[] = [];
    for (const conditions of ruleSets) verdicts.push(...(await this.verdicts([conditions], data)));
    return verdicts;
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async evaluate(ruleSets: unknown[], data: Record<string, unknown>): Promise<Verdict[]> {
    const templates = ruleSets.map((conditions, i) => ({ name: `conditions ${i}`, code: JSON.stringify(conditions) }));
    const outputs = await this.pool.render({ templates, context: { data } });
    return outputs.map((output) => JSON.parse(output) as Verdict);
  }
}
