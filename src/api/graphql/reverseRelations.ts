/**
 * The reverse relations a model's GraphQL type lists, derived from the registry as Django's
 * related names are in NetBox: the objects of another model whose foreign key (a site's
 * `devices`) or generic relation (an interface's `ip_addresses`, an object's
 * `journal_entries`) or named many-to-many field (an ASN's `sites`) points here, named by the field's `relatedName` (NetBox's related_name:
 * a device's `consoleports`, a device type's `instances`), else by that model's plural; a
 * tree's `parent` gives `children`. A one-to-one foreign key gives one object (a device's
 * `parent_bay`). Where two relations would take one name, or a name the type has already,
 * each is named `<plural>_as_<field>` (a wireless link's `interface_a` and `interface_b`).
 */
import type { FieldDefinition } from '../../models/fieldDefinition.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';
import { graphqlName, namesOf } from './names.js';

export interface ReverseRelation {
  name: string;
  /** The model whose objects are listed. */
  source: ModelDefinition;
  /** Its field naming this model's objects (a foreign key, or a generic relation's id field). */
  via: string;
  /** A generic relation's type field (its value names this model). */
  typeField?: string;
  /** At most one object points here (a one-to-one foreign key). */
  oneToOne: boolean;
}

export function reverseRelationsOf(
  registry: ModelRegistry,
  target: ModelDefinition,
  taken: Set<string>,
): ReverseRelation[] {
  const candidates: Array<ReverseRelation & { field: FieldDefinition }> = [];
  const declared = new Set(target.fields.filter((f) => f.type === 'reverse').map((f) => `${f.target}:${f.via}`));
  for (const source of registry.all()) {
    for (const field of source.fields) {
      if (field.internal) continue;
      const plural = field.relatedName?.replace('%(class)s', source.model) ?? namesOf(source).plural;
      if (field.type === 'fk' && field.target === target.key && !declared.has(`${source.key}:${field.name}`)) {
        const tree = field.name === 'parent' && source.key === target.key && !field.relatedName;
        const oneToOne = field.oneToOne === true;
        candidates.push({ name: tree ? 'children' : plural, source, via: field.name, field, oneToOne });
      } else if (
        field.type === 'generic_fk' &&
        field.targets?.includes(target.key) &&
        field.idField &&
        field.typeField
      ) {
        candidates.push({
          name: plural,
          source,
          via: field.idField,
          typeField: field.typeField,
          field,
          oneToOne: false,
        });
      } else if (field.type === 'm2m' && field.target === target.key && field.relatedName) {
        candidates.push({ name: plural, source, via: field.name, field, oneToOne: false });
      }
    }
  }
  const uses = new Map<string, number>();
  for (const c of candidates) uses.set(c.name, (uses.get(c.name) ?? 0) + 1);
  const relations: ReverseRelation[] = [];
  for (const { field, ...relation } of candidates) {
    const shared = uses.get(relation.name)! > 1 || taken.has(relation.name);
    const name = graphqlName(shared ? `${relation.name}_as_${field.name}` : relation.name);
    if (taken.has(name)) continue;
    taken.add(name);
    relations.push({ ...relation, name });
  }
  return relations;
}
