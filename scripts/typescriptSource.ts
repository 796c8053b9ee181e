/**
 * Writing TypeScript source: literals laid out to the line width, and import lines.
 */
import type { Json } from './netboxReference.js';

/** Source code written as is (a reference to a declared name). */
export class Raw {
  constructor(readonly code: string) {}
}

export type Literal = Json | Raw | Literal[] | { [key: string]: Literal };

export function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

function keyOf(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : quote(key);
}

function inline(value: Literal): string {
  if (value instanceof Raw) return value.code;
  if (value === null) return 'null';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(inline).join(', ')}]`;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  if (!entries.length) return '{}';
  return `{ ${entries.map(([k, v]) => `${keyOf(k)}: ${inline(v)}`).join(', ')} }`;
}

const WIDTH = 120;

export function literal(value: Literal, indent: string): string {
  const flat = inline(value);
  if (flat.length + indent.length <= WIDTH || value === null || typeof value !== 'object' || value instanceof Raw) {
    return flat;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    return `[\n${value.map((v) => `${inner}${literal(v, inner)},`).join('\n')}\n${indent}]`;
  }
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return `{\n${entries.map(([k, v]) => `${inner}${keyOf(k)}: ${literal(v, inner)},`).join('\n')}\n${indent}}`;
}

/** Modules of the models' vocabulary, which declare types only: imported with `import type`. */
const TYPE_MODULES = new Set(['../fieldDefinition.js', '../modelDefinition.js']);

/** The imports a generated file needs, by module. */
export class Imports {
  private readonly byModule = new Map<string, Set<string>>();

  use(from: string, name: string): void {
    if (!this.byModule.has(from)) this.byModule.set(from, new Set());
    this.byModule.get(from)!.add(name);
  }

  merge(other: Map<string, Set<string>>): void {
    for (const [from, names] of other) for (const name of names) this.use(from, name);
  }

  lines(): string[] {
    return [...this.byModule]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([from, names]) =>
          `import ${TYPE_MODULES.has(from) ? 'type ' : ''}{ ${[...names].sort().join(', ')} } from '${from}';`,
      );
  }
}
