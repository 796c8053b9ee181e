/**
 * OpenAPI 3.1 → 3.0.3 for the constructs the generator emits. 3.0.3 is what NetBox
 * (drf-spectacular) publishes, what most client generators read, and what Swagger UI
 * renders several times faster; the 3.1 document stays available (`?openapi=3.1`).
 *
 *   anyOf [X, {type: null}]     → X with nullable: true (a $ref wrapped in allOf)
 *   type: [T, 'null']           → type: T, nullable: true
 *   const: v                    → enum: [v]
 *   if / then                   → dropped (the 3.0 dialect has no conditionals)
 *   $ref with sibling keywords  → allOf: [{$ref}] plus the siblings
 *   required: []                → removed
 */
type Node = Record<string, unknown>;

const isNullType = (s: unknown) =>
  !!s && typeof s === 'object' && (s as Node).type === 'null' && Object.keys(s as Node).length === 1;

/** Converts one schema object (recursively). */
export function schema30(input: unknown): unknown {
  if (Array.isArray(input)) return input.map(schema30);
  if (!input || typeof input !== 'object') return input;
  let node: Node = {};
  for (const [key, value] of Object.entries(input as Node)) {
    if (key === 'if' || key === 'then' || key === 'else') continue;
    if (key === 'properties' || key === 'patternProperties') {
      node[key] = Object.fromEntries(Object.entries(value as Node).map(([k, v]) => [k, schema30(v)]));
    } else if (key === 'enum' || key === 'default' || key === 'example') {
      node[key] = value;
    } else {
      node[key] = schema30(value);
    }
  }
  if ('const' in node) {
    node.enum = [node.const];
    delete node.const;
  }
  if (Array.isArray(node.type)) {
    const types = (node.type as string[]).filter((t) => t !== 'null');
    if (types.length < (node.type as string[]).length) node.nullable = true;
    if (types.length === 1) node.type = types[0];
    else {
      delete node.type;
      node.anyOf = types.map((type) => ({ type }));
    }
  }
  if (Array.isArray(node.required) && node.required.length === 0) delete node.required;
  for (const combiner of ['anyOf', 'oneOf'] as const) {
    const options = node[combiner];
    if (!Array.isArray(options) || !options.some(isNullType)) continue;
    const rest = options.filter((o) => !isNullType(o));
    delete node[combiner];
    if (
      rest.length === 1 &&
      Object.keys(node).every((k) => !['allOf', 'anyOf', 'oneOf', '$ref', 'type', 'enum'].includes(k))
    ) {
      node = { ...(rest[0] as Node), ...node };
    } else {
      node[combiner] = rest;
    }
    node.nullable = true;
  }
  if (typeof node.$ref === 'string' && Object.keys(node).length > 1) {
    const { $ref, ...siblings } = node;
    node = { allOf: [{ $ref }], ...siblings };
  }
  if (node.nullable === true && Array.isArray(node.enum) && !node.enum.includes(null)) node.enum = [...node.enum, null];
  return node;
}

/** Converts the whole document. */
export function toOpenApi30(document: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(document) as Node;
  out.openapi = '3.0.3';
  const info = out.info as Node | undefined;
  if (info?.license && typeof info.license === 'object') delete (info.license as Node).identifier;
  const convertContent = (content: unknown) => {
    if (!content || typeof content !== 'object') return;
    for (const media of Object.values(content as Node)) {
      const m = media as Node;
      if (m.schema) m.schema = schema30(m.schema);
    }
  };
  const convertParameter = (parameter: Node) => {
    if (parameter.schema) parameter.schema = schema30(parameter.schema);
  };
  const components = out.components as Node;
  components.schemas = Object.fromEntries(Object.entries(components.schemas as Node).map(([k, v]) => [k, schema30(v)]));
  for (const parameter of Object.values((components.parameters as Node) ?? {})) convertParameter(parameter as Node);
  for (const item of Object.values(out.paths as Node)) {
    for (const [key, value] of Object.entries(item as Node)) {
      if (key === 'parameters') (value as Node[]).forEach(convertParameter);
      if (!value || typeof value !== 'object' || !('responses' in (value as Node))) continue;
      const operation = value as Node;
      ((operation.parameters as Node[]) ?? []).forEach(convertParameter);
      if (operation.requestBody) convertContent((operation.requestBody as Node).content);
      for (const response of Object.values(operation.responses as Node)) convertContent((response as Node).content);
    }
  }
  return out;
}
