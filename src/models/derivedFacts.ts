/**
 * What a model definition need not say because its fields say it already. The registry
 * completes every definition with these before anything reads it, so a model file
 * declares only what is particular to it.
 */
import type { FieldDefinition, FieldType } from './fieldDefinition.js';
import { displayAttribute } from './hooks.js';
import type { ModelDefinition, UniqueConstraint } from './modelDefinition.js';

/** Types whose values are stored on the object as one comparable value. */
const ORDERABLE_TYPES = new Set<FieldType>([
  'id',
  'string',
  'integer',
  'decimal',
  'boolean',
  'date',
  'datetime',
  'choice',
  'cidr',
  'ip_address',
  'mac_address',
  'wwn',
  'fk',
  'content_type',
  'array',
]);

/** Read-only fields that are columns of their own rather than values computed from others. */
const STORED_READ_ONLY = new Set(['id', 'created', 'last_updated']);

/**
 * The names ?ordering= accepts unless a definition lists its own: every rendered field
 * stored as one value. A read-only value computed from other fields (an address family)
 * is not one of NetBox's ordering columns; JSON documents, secrets and relation lists are not either.
 */
export function defaultOrderingFields(fields: FieldDefinition[]): string[] {
  return fields
    .filter((f) => ORDERABLE_TYPES.has(f.type) && !f.internal && !f.writeOnly && !f.secret)
    .filter((f) => !f.readOnly || STORED_READ_ONLY.has(f.name))
    .map((f) => f.name);
}

/** A constraint a field's own `unique` flag says: one field, no condition, case rule or message of its own. */
export function isPlainFieldConstraint(constraint: UniqueConstraint): boolean {
  return (
    constraint.fields.length === 1 &&
    constraint.whenNull === undefined &&
    constraint.message === undefined &&
    !constraint.caseInsensitive?.length
  );
}

/**
 * Every uniqueness rule the write side enforces (and the read models index): one per field
 * marked `unique`, in field order, then the definition's own constraints over several
 * fields or with conditions.
 */
export function uniqueConstraintsOf(definition: ModelDefinition): UniqueConstraint[] {
  const fromFields = definition.fields.filter((f) => f.unique).map((f) => ({ fields: [f.name] }));
  return [...fromFields, ...(definition.unique ?? [])];
}

/**
 * The definition as the rest of the service reads it: ordering fields, uniqueness and
 * display filled in where the model file leaves them to their defaults (a model with a
 * name shows its name, as most of NetBox's do).
 */
export function withDerivedFacts(declared: ModelDefinition): ModelDefinition {
  const hasName = declared.fields.some((f) => f.name === 'name');
  const hooks =
    declared.hooks?.display || !hasName ? declared.hooks : { display: displayAttribute('name'), ...declared.hooks };
  const unique = uniqueConstraintsOf(declared);
  return {
    ...declared,
    orderingFields: declared.orderingFields ?? defaultOrderingFields(declared.fields),
    ...(unique.length ? { unique } : {}),
    ...(hooks ? { hooks } : {}),
  };
}
