/**
 * Which relations of a model's default ordering sort by the related model's own ordering, as
 * Django orders `ordering = ('device', '_name')`: by the device's Meta.ordering, not its id.
 * Each such relation is kept as a hidden column `_ord_<field>` holding the related object's
 * order key (src/projections/relationOrderKeys.ts keeps it current), so the read models sort
 * and index it like any stored value.
 */
import type { ModelDefinition } from './modelDefinition.js';

export interface OrderedRelation {
  /** The fk field named in the ordering. */
  field: string;
  /** The related model. */
  target: string;
  /** The hidden column holding the related object's order key. */
  column: string;
}

const cache = new WeakMap<ModelDefinition, OrderedRelation[]>();

/**
 * The fk terms of the model's default ordering that follow the related model's order (not
 * those NetBox orders by id, `idOrderedRelations`). The registry checks that their targets
 * order by ascending terms only, which is what one ascending key can say.
 */
export function orderedRelations(definition: ModelDefinition): OrderedRelation[] {
  const cached = cache.get(definition);
  if (cached) return cached;
  const out: OrderedRelation[] = [];
  for (const term of definition.ordering) {
    if (term.startsWith('-')) continue;
    const field = definition.fields.find((f) => f.name === term);
    if (field?.type !== 'fk' || !field.target || definition.idOrderedRelations?.includes(term)) continue;
    out.push({ field: term, target: field.target, column: relationOrderColumn(term) });
  }
  cache.set(definition, out);
  return out;
}

/** The stored key a default-ordering term sorts by: an ordered relation's column, else the term's own name. */
export function orderingKey(definition: ModelDefinition, name: string): string {
  const relation = orderedRelations(definition).find((r) => r.field === name);
  return relation ? relation.column : name;
}

/** The hidden column of an ordered relation. */
export function relationOrderColumn(field: string): string {
  return `_ord_${field}`;
}
