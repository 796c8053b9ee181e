import type { LookupView } from '../lookupView.js';
import type { StoredObject } from '../storedObject.js';
import { ContextIndex } from './ContextIndex.js';
import { type ContextScope, CRITERIA } from './contextScopes.js';
import { criterionValues } from './criterionValues.js';
import { deepMerge, isJsonObject } from './deepMerge.js';

export const CONFIG_CONTEXT_MODEL = 'extras.configcontext';

/**
 * The rendered `config_context` of a page of objects of one kind: the data of every
 * active config context that applies to the object, merged by weight then name, then the
 * object's own `local_context_data` (when it holds anything) merged last. The contexts are
 * read and indexed once per page from the read models the page is rendered from (the
 * live ones, or a past state), so a change is seen by the next read and `as_of` sees the
 * contexts of its time.
 */
export function renderConfigContexts(
  scope: ContextScope,
): (objs: StoredObject[], view: LookupView) => Promise<unknown[]> {
  const criteria = CRITERIA.filter((criterion) => scope[criterion] !== 'ignored');
  return async (objs, view) => {
    const index = new ContextIndex(await view.find(CONFIG_CONTEXT_MODEL, { is_active: true }), criteria);
    const values = index.size > 0 ? await criterionValues(objs, scope, index.usedCriteria, view) : [];
    return objs.map((obj, i) => {
      const inherited = index.merged(index.size > 0 ? index.applicable(values[i]) : []);
      const local = obj.local_context_data;
      return isJsonObject(local) && Object.keys(local).length > 0 ? deepMerge(inherited, local) : inherited;
    });
  };
}
