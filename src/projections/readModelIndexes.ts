import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ModelRegistry } from '../models/registry.js';
import { orderingKey } from '../models/relationOrder.js';

/**
 * The indexes every read model keeps, derived from its definition: relations (for
 * filters, counts and delete checks), unique fields (for uniqueness checks and
 * lookups by name/slug), choices and content types (frequent filters), and internal
 * lookup keys such as a token's key digest.
 */
export function readModelIndexes(registry: ModelRegistry): Map<string, string[][]> {
  const indexes = new Map<string, string[][]>();
  for (const definition of registry.all()) {
    const fields = new Set<string>();
    for (const field of definition.fields) {
      if (field.type === 'fk' || field.type === 'm2m' || field.type === 'tags' || field.unique || field.internal)
        fields.add(field.name);
      // Choices and content types have few values and are filtered and counted often (?status=).
      if (
        field.type === 'choice' ||
        field.type === 'content_type' ||
        (field.type === 'array' && field.items === 'content_type')
      )
        fields.add(field.name);
      if (field.type === 'generic_fk' && field.idField) fields.add(field.idField);
      if (field.secret === 'token_key') fields.add('key_digest');
    }
    for (const constraint of definition.unique ?? []) for (const name of constraint.fields) fields.add(name);
    indexes.set(definition.key, [...[...fields].map((f) => [f]), ...orderIndexes(definition)]);
  }
  return indexes;
}

/**
 * Compound indexes in the orders lists are read in (src/api/query/sort.ts): the model's
 * default ordering (ending with id), and for networks and addresses their numeric order,
 * whose first key also answers containment ranges (prefix within/contains, IP parent).
 * MemoryReadStore keeps these as sorted indexes; MongoDB as compound indexes.
 */
function orderIndexes(definition: ModelDefinition): string[][] {
  const out: string[][] = [];
  const add = (keys: string[]) => {
    const list = keys.includes('id') ? keys : [...keys, 'id'];
    if (list.length > 1 && !out.some((o) => o.join() === list.join())) out.push(list);
  };
  const ordering = definition.ordering.map((t) => orderingKey(definition, t.replace(/^-/, '')));
  if (definition.ordering.every((t) => !t.startsWith('-'))) add(ordering);
  if (ordering.includes('_network')) add(['_network', '_prefixlen']);
  if (ordering.includes('_address')) add(['_address', '_prefixlen']);
  return out;
}
