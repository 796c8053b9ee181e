import { ValidationError } from '../../commands/errors.js';
import type { FieldDefinition, FieldErrors, ModelDefinition } from '../../models/types.js';
import type { Query, Sort } from '../../projections/ReadStore.js';

/** Query parameters that are not filters. */
const RESERVED = new Set(['limit', 'offset', 'ordering', 'brief', 'exclude', 'fields', 'format', 'q', 'start']);

const FILTERABLE = new Set(['string', 'integer', 'decimal', 'boolean', 'choice', 'date', 'datetime', 'cidr', 'ip_address', 'mac_address', 'content_type']);

/**
 * Compile list query parameters into one MongoDB query document. Values are always
 * data: they are coerced to the field's type and wrapped in $in, never read as
 * operators. Different parameters AND together; a repeated parameter ORs.
 */
export function compileFilter(definition: ModelDefinition, query: URLSearchParams, handledElsewhere: ReadonlySet<string> = new Set()): Query {
  const clauses: Query[] = [];
  const errors: FieldErrors = {};
  const byName = new Map(definition.fields.map((f) => [f.name, f]));
  for (const name of new Set(query.keys())) {
    if (RESERVED.has(name) || handledElsewhere.has(name)) continue;
    const values = query.getAll(name);
    if (name === 'id') {
      clauses.push({ id: { $in: values.map((v) => integerValue(v, name, errors)) } });
      continue;
    }
    const fkName = name.endsWith('_id') ? name.slice(0, -3) : null;
    const fk = fkName ? byName.get(fkName) : undefined;
    if (fk && (fk.type === 'fk' || fk.type === 'm2m' || fk.type === 'tags')) {
      const ids = values.map((v) => (v === 'null' ? null : integerValue(v, name, errors)));
      clauses.push({ [fk.name]: { $in: ids } });
      continue;
    }
    const field = byName.get(name);
    if (field && FILTERABLE.has(field.type) && !field.internal && !field.secret && !field.writeOnly) {
      clauses.push({ [field.name]: { $in: values.map((v) => coerceValue(field, v, errors)) } });
    }
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  if (clauses.length === 0) return {};
  return clauses.length === 1 ? clauses[0] : { $and: clauses };
}

function integerValue(value: string, param: string, errors: FieldErrors): number {
  if (!/^-?\d+$/.test(value)) {
    (errors[param] ??= []).push('Enter a whole number.');
    return 0;
  }
  return Number(value);
}

function coerceValue(field: FieldDefinition, value: string, errors: FieldErrors): unknown {
  switch (field.type) {
    case 'integer':
      return integerValue(value, field.name, errors);
    case 'decimal': {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n)) (errors[field.name] ??= []).push('Enter a number.');
      return n;
    }
    case 'boolean':
      return /^(true|1)$/i.test(value);
    case 'choice': {
      const match = field.choices?.find((c) => String(c.value) === value);
      if (!match) (errors[field.name] ??= []).push(`Select a valid choice. ${value} is not one of the available choices.`);
      return match?.value ?? value;
    }
    default:
      return value;
  }
}

/** ?ordering=a,-b over the model's ordering fields; the default ordering breaks ties. */
export function compileSort(definition: ModelDefinition, ordering: string | null): Sort {
  const sort: Sort = {};
  const allowed = new Set(definition.orderingFields ?? definition.fields.map((f) => f.name));
  for (const term of (ordering ?? '').split(',').map((t) => t.trim()).filter(Boolean)) {
    const name = term.replace(/^-/, '');
    if (!allowed.has(name) || name.startsWith('_')) continue;
    if (!(name in sort)) sort[name] = term.startsWith('-') ? -1 : 1;
  }
  for (const term of definition.ordering) {
    const name = term.replace(/^-/, '');
    if (!(name in sort)) sort[name] = term.startsWith('-') ? -1 : 1;
  }
  if (!('id' in sort)) sort.id = 1;
  return sort;
}
