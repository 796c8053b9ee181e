import { contentTypeIdFilter } from '../contentTypeIdFilter.js';
import type { FilterSpec } from '../filterTypes.js';

/**
 * The filters of a model holding a list of content types (`content_types`), as NetBox's
 * webhooks and export templates have them: `content_types` takes one '<app>.<model>' and
 * matches the objects whose list holds it (`__n`: does not); `content_type_id` names the
 * types by id (repeatable, OR).
 */
export function contentTypesFilters(field = 'content_types'): Record<string, FilterSpec> {
  return {
    [field]: {
      kind: 'method',
      single: true,
      lookups: ['n'],
      method: ([value], env) => {
        const type = String(value).toLowerCase();
        return env.lookup === 'n' ? { [field]: { $ne: type } } : { [field]: type };
      },
    },
    content_type_id: contentTypeIdFilter(field, { numeric: true }),
  };
}
