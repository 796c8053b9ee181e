import type { LookupView } from '../models/lookupView.js';
import type { ModelRegistry } from '../models/registry.js';

/** The outcome of resolving one written reference: the target id, or the message for the field. */
export type Resolution = { id: number } | { error: string };

const MAX_DEPTH = 8;

/**
 * Resolve a related object written as a numeric id (or numeric string) or as a
 * dictionary of attributes that must match exactly one object; nested dictionaries
 * follow foreign keys (a rack as {"name": "R1", "site": {"name": "S1"}}).
 */
export async function resolveReference(
  registry: ModelRegistry,
  view: LookupView,
  target: string,
  value: unknown,
): Promise<Resolution> {
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))) {
    const id = Number(value);
    if (!Number.isSafeInteger(id) || !(await view.get(target, id))) {
      return { error: `Related object not found using the provided numeric ID: ${value}` };
    }
    return { id };
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const attributes = value as Record<string, unknown>;
    const query = await attributeQuery(registry, view, target, attributes, 0);
    if ('error' in query) return query;
    const matches = query.impossible ? [] : await view.find(target, query.query, 2);
    if (matches.length === 0)
      return { error: `Related object not found using the provided attributes: ${pythonRepr(attributes)}` };
    if (matches.length > 1)
      return { error: `Multiple objects match the provided attributes: ${pythonRepr(attributes)}` };
    return { id: matches[0].id };
  }
  return {
    error: `Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: ${pythonValue(value)}`,
  };
}

type AttributeQuery = { query: Record<string, unknown>; impossible?: boolean } | { error: string };

/**
 * Turn an attribute dictionary into a query on the target's stored fields. Only
 * declared fields are accepted and every value is matched as data (no operators).
 */
async function attributeQuery(
  registry: ModelRegistry,
  view: LookupView,
  target: string,
  attributes: Record<string, unknown>,
  depth: number,
): Promise<AttributeQuery> {
  const definition = registry.tryGet(target);
  if (!definition) return { error: `Related object type ${target} is not available.` };
  if (depth > MAX_DEPTH) return { error: 'Related object attributes are nested too deeply.' };
  const query: Record<string, unknown> = {};
  let impossible = false;
  for (const [name, value] of Object.entries(attributes)) {
    const field = definition.fields.find((f) => f.name === name && !f.internal && !f.writeOnly && !f.secret);
    if (!field) {
      const choices = definition.fields.filter((f) => !f.internal && !f.secret && !f.writeOnly).map((f) => f.name);
      return { error: `Cannot resolve keyword '${name}' into field. Choices are: ${choices.join(', ')}` };
    }
    if ((field.type === 'fk' || field.type === 'tags' || field.type === 'm2m') && field.target) {
      if (value === null) {
        query[name] = null;
        continue;
      }
      if (typeof value === 'object' && !Array.isArray(value)) {
        const inner = await attributeQuery(registry, view, field.target, value as Record<string, unknown>, depth + 1);
        if ('error' in inner) return inner;
        const ids = inner.impossible ? [] : (await view.find(field.target, inner.query)).map((o) => o.id);
        if (ids.length === 0) impossible = true;
        query[name] = { $in: ids };
        continue;
      }
      const id = Number(value);
      if (!Number.isSafeInteger(id)) impossible = true;
      query[name] = id;
      continue;
    }
    if (value !== null && typeof value === 'object')
      return { error: `Invalid value for '${name}': ${pythonRepr(value)}` };
    // Literal equality: `$eq` keeps a value that looks like an operator document from being read as one.
    query[name] = { $eq: value };
  }
  return { query, impossible };
}

/** Python's repr of a JSON value, as NetBox's messages print it. */
export function pythonRepr(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`)
      .join(', ')}}`;
  }
  return String(value);
}

/** Python's str() of a JSON value (strings bare), as NetBox's f-string messages print it. */
export function pythonValue(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}
