/**
 * Builds a page's rows from its rendered columns. A row built by assigning its keys one by
 * one (50 of them for an interface) leaves V8's fast-property mode for a dictionary: bigger
 * objects, slower to fill and to serialise. An object literal with the keys written out keeps
 * one hidden class for every row of the same shape, so each key list gets a small function
 * compiled once. The keys are field names of the model registry, written as JSON string
 * literals, never data of a request.
 */
export type RowBuilder = (columns: unknown[][], row: number) => Record<string, unknown>;

const builders = new Map<string, RowBuilder>();
const MAX_BUILDERS = 2_000;

export function rowBuilder(keys: string[]): RowBuilder {
  const signature = keys.join('\u0000');
  const known = builders.get(signature);
  if (known) return known;
  // '__proto__' in a literal would set the prototype rather than a key
  const built = keys.includes('__proto__') ? assignedRow(keys) : literalRow(keys);
  if (builders.size < MAX_BUILDERS) builders.set(signature, built);
  return built;
}

function literalRow(keys: string[]): RowBuilder {
  const properties = keys.map((key, i) => `${JSON.stringify(key)}: columns[${i}][row]`).join(', ');

  return new Function('columns', 'row', `return { ${properties} };`) as RowBuilder;
}

function assignedRow(keys: string[]): RowBuilder {
  return (columns, row) => {
    const out: Record<string, unknown> = {};
    keys.forEach((key, i) =>
      Object.defineProperty(out, key, { value: columns[i][row], enumerable: true, writable: true, configurable: true }),
    );
    return out;
  };
}
