import type { ModelRegistry } from '../models/registry.js';

/**
 * The indexes every read model keeps, derived from its definition: relations (for
 * filters, counts and delete checks), unique fields (for uniqueness checks and
 * lookups by name/slug) and internal lookup keys such as a token's key digest.
 */
export function readModelIndexes(registry: ModelRegistry): Map<string, string[][]> {
  const indexes = new Map<string, string[][]>();
  for (const definition of registry.all()) {
    const fields = new Set<string>();
    for (const field of definition.fields) {
      if (field.type === 'fk' || field.type === 'm2m' || field.type === 'tags' || field.unique || field.internal) fields.add(field.name);
      if (field.type === 'generic_fk' && field.idField) fields.add(field.idField);
      if (field.secret === 'token_key') fields.add('key_digest');
    }
    for (const constraint of definition.unique ?? []) for (const name of constraint.fields) fields.add(name);
    indexes.set(definition.key, [...fields].map((f) => [f]));
  }
  return indexes;
}
