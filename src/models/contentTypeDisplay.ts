import type { ModelCatalog } from './modelCatalog.js';

/**
 * A content type's string form as NetBox prints it: '<app_label> | <verbose name>'
 * (e.g. 'dcim | site'); the model name stands in for a model the registry lacks.
 */
export function contentTypeDisplay(key: string, models: ModelCatalog): string {
  const [app = key, model = key] = key.split('.');
  return `${app} | ${models.tryGet(key)?.verboseName ?? model}`;
}
