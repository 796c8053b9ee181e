/**
 * Writes the CRUD test's sample for a generated model into test/support/crudSamples.ts: a
 * create body from its required fields (related objects taken from those made before it)
 * and a change to its description.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Field = Record<string, Json>;

function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A value the field accepts, as TypeScript source; null when none can be made up. */
function sampleValue(field: Field, verboseName: string): string | null {
  const choices = field.choices as Array<{ value: Json }> | undefined;
  switch (field.type) {
    case 'string': {
      if (field.format === 'slug') return `'${slugOf(`example ${verboseName}`)}'`;
      if (field.pattern || field.format) return null;
      const text =
        field.name === 'name' ? `Example ${verboseName}` : `example ${String(field.name).replace(/_/g, ' ')}`;
      return `'${text.slice(0, typeof field.maxLength === 'number' ? field.maxLength : undefined).replace(/'/g, "\\'")}'`;
    }
    case 'integer':
    case 'decimal':
      return String(typeof field.min === 'number' ? field.min : 1);
    case 'boolean':
      return 'true';
    case 'choice':
      return choices?.length ? JSON.stringify(choices[0].value).replace(/"/g, "'") : null;
    case 'fk':
      return `made['${String(field.target)}'].id`;
    case 'cidr':
      return "'192.0.2.0/24'";
    case 'ip_address':
      return "'192.0.2.1/24'";
    case 'content_type':
      return `'${Array.isArray(field.allowedTypes) ? String(field.allowedTypes[0]) : 'dcim.site'}'`;
    case 'array':
      return field.items === 'content_type' ? "['dcim.site']" : '[]';
    case 'json':
      return '{}';
    default:
      return null;
  }
}

/** The sample's source line (with a TODO where a value could not be made up). */
export function crudSampleLine(key: string, verboseName: string, fields: Field[]): string {
  const body: string[] = [];
  const todo: string[] = [];
  for (const field of fields.filter((f) => f.required && !f.readOnly)) {
    const value = sampleValue(field, verboseName);
    if (value === null) todo.push(String(field.name));
    else body.push(`${String(field.name)}: ${value}`);
  }
  const patchable =
    fields.find((f) => f.name === 'description') ??
    fields.find((f) => f.type === 'string' && !f.required && !f.readOnly && !f.pattern && !f.format);
  const patch = patchable ? `{ ${String(patchable.name)}: 'changed' }` : '{} /* TODO a change to read back */';
  const made = body.some((entry) => entry.includes('made[')) ? 'made' : '';
  const note = todo.length ? ` // TODO values for ${todo.join(', ')}` : '';
  const create = body.length ? `({ ${body.join(', ')} })` : '({})';
  return `  '${key}': { create: (${made}) => ${create}, patch: ${patch} },${note}`;
}

/** The samples text with the line added before the list's end; unchanged when the model has a sample. */
export function addCrudSample(samplesText: string, key: string, line: string): string {
  if (samplesText.includes(`  '${key}': `)) return samplesText;
  const lines = samplesText.split('\n');
  const start = lines.findIndex((l) => /^export const CRUD_SAMPLES\b/.test(l));
  const end = lines.findIndex((l, i) => i > start && l === '};');
  if (start < 0 || end < 0) throw new Error('test/support/crudSamples.ts: no CRUD_SAMPLES list found');
  lines.splice(end, 0, line);
  return lines.join('\n');
}
