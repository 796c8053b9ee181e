import test from 'ava';

import { TemplatePool } from '../../src/templates/TemplatePool.js';
import type { TemplateLimits } from '../../src/templates/TemplateRenderer.js';

/** A template pool for one test file, closed after its tests. */
export function templatePool(limits: Partial<TemplateLimits> = {}): TemplatePool {
  const pool = new TemplatePool({ timeoutMs: 5000, memoryMb: 64, outputMb: 8, workers: 1, queue: 16, ...limits });
  test.after.always(() => pool.close());
  return pool;
}

/** One template rendered over a context by the pool. */
export async function renderWith(pool: TemplatePool, code: string, context: Record<string, unknown>): Promise<string> {
  const [output] = await pool.render({ templates: [{ name: 'template', code }], context });
  return output!;
}
