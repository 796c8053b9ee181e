/**
 * Shrinking the document without changing its meaning: what many operations repeat word
 * for word moves to components and is referenced.
 */
import type { ModelRegistry } from '../../models/registry.js';
import type { Schema } from './openapiFragments.js';

/**
 * Query parameters that several operations share word for word (id__gte, name__ic,
 * created__lt ...) move to components.parameters and are referenced: the document
 * shrinks several times over.
 */
export function shareParameters(paths: Record<string, Schema>, components: Record<string, Schema>): void {
  const operations = Object.values(paths).flatMap((item) =>
    Object.values(item).filter((op): op is Schema => !!op && typeof op === 'object' && 'responses' in op),
  );
  const uses = new Map<string, number>();
  for (const op of operations) {
    for (const p of (op.parameters as Schema[] | undefined) ?? []) {
      if (p.$ref) continue;
      const key = JSON.stringify(p);
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  const names = new Map<string, string>();
  for (const op of operations) {
    const params = op.parameters as Schema[] | undefined;
    if (!params) continue;
    op.parameters = params.map((p) => {
      if (p.$ref) return p;
      const key = JSON.stringify(p);
      if ((uses.get(key) ?? 0) < 2) return p;
      let name = names.get(key);
      if (!name) {
        const base = `filter.${String(p.name)}`;
        name = base;
        for (let i = 2; name in components; i++) name = `${base}.${i}`;
        components[name] = p;
        names.set(key, name);
      }
      return { $ref: `#/components/parameters/${name}` };
    });
  }
}

/**
 * The value lists of choice fields become named schemas (`InterfaceTypeChoices`) that
 * every response, request body and filter refers to, instead of repeating long enums.
 */
export function shareChoices(
  registry: ModelRegistry,
  names: Map<string, string>,
  document: Record<string, unknown>,
  schemas: Record<string, Schema>,
): void {
  const byValues = new Map<string, string>();
  for (const definition of registry.all()) {
    for (const field of definition.fields) {
      if (field.type !== 'choice' || !field.choices?.length) continue;
      const values = field.choices.map((c) => c.value);
      const key = JSON.stringify(values);
      if (byValues.has(key)) continue;
      const pascal = field.name.replace(/(^|_)([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());
      const name = `${names.get(definition.key)}${pascal}Choices`;
      byValues.set(key, name);
      schemas[name] = {
        enum: values,
        description: field.choices.map((c) => `\`${String(c.value)}\`: ${c.label}`).join(', '),
      };
    }
  }
  const walk = (node: unknown, inSchemas: boolean): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, inSchemas));
    if (!node || typeof node !== 'object') return;
    const object = node as Record<string, unknown>;
    if (Array.isArray(object.enum) && !inSchemas) {
      const name = byValues.get(JSON.stringify(object.enum));
      if (name) {
        delete object.enum;
        object.$ref = `#/components/schemas/${name}`;
      }
    }
    for (const value of Object.values(object)) walk(value, false);
  };
  walk(document, false);
  // the named lists themselves stay as they are; everything else in the schemas refers to them
  for (const [name, schema] of Object.entries(schemas))
    if (!name.endsWith('Choices') || !Array.isArray(schema.enum)) walk(schema, false);
}
