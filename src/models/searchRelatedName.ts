import type { FilterMethod } from './filterTypes.js';

/** The `q` search's extra match: objects whose `via` relation names a `model` object containing the text (case-insensitive). */
export function relatedNameContains(model: string, via: string): FilterMethod {
  return async ([text], env) => ({
    [via]: { $in: await env.ids(model, { name: env.textCondition('ic', String(text)) }) },
  });
}
