/**
 * Writes model definition files from the NetBox 3.4 REST API reference, registers them
 * and gives the CRUD test a sample for each.
 *
 *   npx tsx scripts/import-reference.ts tenancy.contactrole dcim.consoleport ...
 *   npx tsx scripts/import-reference.ts --dry-run tenancy.contactrole   (print instead of writing)
 *
 * For each requested '<app_label>.<model>' it writes src/models/<url app>/<model>.ts
 * unless that file exists already: generated files are a starting point and hand edits
 * (hooks, corrections) live in them, so they are never overwritten. It then adds the
 * model to src/models/index.ts and its sample to test/support/crudSamples.ts (each once).
 * Everything is read off the reference entry; what the reference states only in prose
 * is left as a TODO in the file, never asked of a table here. Filters: referenceFilters.ts.
 *
 * The reference folder defaults to ../../shared/reference/netbox-3.4/ relative to this
 * script; NETBOX_REFERENCE_DIR overrides it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { defaultOrderingFields } from '../src/models/derivedFacts.js';
import type { Choice, FieldDefinition } from '../src/models/fieldDefinition.js';
import { isTree, type Json, loadReference, type RefField, type RefModel, type RefUnique } from './netboxReference.js';
import { referenceFilters } from './referenceFilters.js';
import { registerModel } from './registerModel.js';
import { addCrudSample, crudSampleLine } from './scaffoldCrudSample.js';
import { nestedGroupShape, organizationalShape, sharedField, sharedRunAt } from './sharedDeclarations.js';
import { Imports, type Literal, literal, quote, Raw } from './typescriptSource.js';

export { loadReference };

const MODELS_DIR = fileURLToPath(new URL('../src/models/', import.meta.url));
const INDEX_FILE = path.join(MODELS_DIR, 'index.ts');
const SAMPLES_FILE = fileURLToPath(new URL('../test/support/crudSamples.ts', import.meta.url));

// ---------------------------------------------------------------------------
// Rules the reference's field descriptions follow (by field name, never by model)

interface CountSpec {
  model: string;
  via: string;
  where?: Record<string, string>;
  note?: string;
}

/** Counts over a generic relation: the counted objects name this model by content type and id. */
function genericRelationCount(key: string, name: string): CountSpec | null {
  if (name === 'count_ipaddresses')
    return { model: 'ipam.ipaddress', via: 'assigned_object_id', where: { assigned_object_type: key } };
  if (name === 'count_fhrp_groups')
    return { model: 'ipam.fhrpgroupassignment', via: 'interface_id', where: { interface_type: key } };
  return null;
}

/** A reference default that is a value of the field (not prose such as 'now' or 'random 40-char hex'). */
function isLiteralDefault(field: RefField): boolean {
  const value = field.default;
  if (typeof value !== 'string' || value === '') return true;
  if (field.type === 'datetime' || field.type === 'date') return !Number.isNaN(Date.parse(value));
  if (typeof field.min_length === 'number' && value.length < field.min_length) return false;
  if (typeof field.max_length === 'number' && value.length > field.max_length) return false;
  return true;
}

/** Identifiers that cannot name an exported const in an ES module. */
const RESERVED = new Set([
  'interface',
  'package',
  'private',
  'protected',
  'public',
  'static',
  'implements',
  'let',
  'yield',
]);

// ---------------------------------------------------------------------------
// Conversion

interface Converted {
  def: Record<string, Json>;
  note?: string;
}

const TYPE_MAP: Record<string, string> = {
  string: 'string',
  integer: 'integer',
  boolean: 'boolean',
  decimal: 'decimal',
  date: 'date',
  datetime: 'datetime',
  json: 'json',
  choice: 'choice',
  choice_int: 'choice',
  choice_raw: 'choice',
  cidr_prefix: 'cidr',
  ip_address: 'ip_address',
  mac_address: 'mac_address',
  wwn: 'wwn',
  fk: 'fk',
  m2m: 'm2m',
  tags: 'tags',
  custom_fields: 'custom_fields',
  content_type: 'content_type',
  array: 'array',
};

const ITEMS_MAP: Record<string, string> = { cidr_prefix: 'cidr', string: 'string', integer: 'integer', json: 'json' };

const warnings: string[] = [];

function warn(message: string): void {
  warnings.push(message);
}

function findCount(ref: Map<string, RefModel>, model: RefModel, field: RefField): CountSpec | null {
  const id = `${model.model}.${field.name}`;
  const generic = genericRelationCount(model.model, field.name);
  if (generic) return generic;
  const match = /^(\w+)_count$/.exec(field.name);
  if (!match) return null;
  const counted = [...ref.values()].filter((m) => m.model.split('.')[1] === match[1]);
  if (counted.length !== 1) {
    warn(`${id}: ${counted.length} models named ${match[1]}`);
    return null;
  }
  const fks = counted[0].fields.filter((f) => f.type === 'fk' && f.target === model.model);
  if (fks.length !== 1) {
    warn(`${id}: ${fks.length} foreign keys of ${counted[0].model} point at ${model.model}`);
    return null;
  }
  const spec: CountSpec = { model: counted[0].model, via: fks[0].name };
  const text = typeof field.annotation === 'string' ? field.annotation : '';
  if (isTree(model) || /descendant/.test(text)) {
    spec.note = 'NetBox counts objects assigned to descendants too; this counts direct ones';
  }
  return spec;
}

function computedDefault(field: RefField): Json {
  if (field.nullable) return null;
  switch (field.type) {
    case 'array':
      return [];
    case 'string':
      return '';
    case 'boolean':
      return false;
    case 'integer':
      return 0;
    case 'json':
      return {};
    default:
      return null;
  }
}

function convertField(ref: Map<string, RefModel>, model: RefModel, field: RefField): Converted {
  const id = `${model.model}.${field.name}`;
  const name = field.name;
  const readOnly = field.read_only === true;

  if (name === 'id') return { def: { name, type: 'id', readOnly: true } };
  if (field.type === 'url') return { def: { name, type: 'url', readOnly: true } };
  if (name === 'display' && field.type === 'string' && readOnly)
    return { def: { name, type: 'display', readOnly: true } };

  // A change-logged record's `created` reads as a date (a token's stays a datetime).
  if (name === 'created' && field.type === 'datetime' && readOnly && field.nullable) {
    return { def: { name, type: 'date', readOnly: true, nullable: true } };
  }

  const annotated = field.annotated === true || typeof field.annotation === 'string';
  if (readOnly && field.type === 'integer' && (annotated || /_count$|^count_/.test(name))) {
    const spec = findCount(ref, model, field);
    if (spec) {
      const count: Record<string, Json> = { model: spec.model, via: spec.via };
      if (spec.where) count.where = spec.where;
      const def: Record<string, Json> = { name, type: 'count', readOnly: true };
      if (annotated) def.annotated = true;
      def.count = count;
      return { def, note: spec.note };
    }
  }

  if (field.type === 'generic_fk') {
    const fieldNames = new Set(model.fields.map((f) => f.name));
    const def: Record<string, Json> = { name, type: 'generic_fk', readOnly: true, nullable: true };
    def.targets = (field.targets as Json[]) ?? [];
    if (fieldNames.has(`${name}_type`) && fieldNames.has(`${name}_id`)) {
      def.typeField = `${name}_type`;
      def.idField = `${name}_id`;
    } else {
      warn(`${id}: no ${name}_type/${name}_id pair`);
    }
    return { def };
  }

  const keepsType =
    field.type === 'datetime' || field.type.startsWith('choice') || field.type === 'generic_fk' || field.type === 'fk';
  if (field.type === 'nested_object' || field.type === 'image' || (readOnly && !keepsType)) {
    const def: Record<string, Json> = { name, type: 'computed', readOnly: true };
    if (field.nullable) def.nullable = true;
    def.value = computedDefault(field);
    return { def };
  }

  // Related objects written and rendered as slugs (a config context's tag criteria).
  if (
    field.type === 'array' &&
    field.representation === 'slug' &&
    typeof field.items === 'string' &&
    /\btag slug\b/.test(field.items)
  ) {
    return { def: { name, type: 'm2m', target: 'extras.tag', representation: 'slug', default: [] } };
  }
  const type = TYPE_MAP[field.type];
  if (!type) {
    warn(`${id}: unknown type ${field.type}`);
  }
  const def: Record<string, Json> = { name, type: type ?? field.type };
  if (field.required) def.required = true;
  if (readOnly) def.readOnly = true;
  if (field.write_only) def.writeOnly = true;
  if (field.nullable) def.nullable = true;
  if (field.blank_allowed) def.blank = true;
  if (field.default !== undefined && !readOnly && isLiteralDefault(field)) def.default = field.default;
  if (field.default_applies_on_put) def.defaultOnPut = true;
  if (typeof field.max_length === 'number' && field.type !== 'image') def.maxLength = field.max_length;
  if (typeof field.min_length === 'number') def.minLength = field.min_length;
  if (typeof field.pattern === 'string') def.pattern = field.pattern;
  switch (field.format) {
    case undefined:
      break;
    case 'slug':
      def.format = field.format;
      def.pattern ??= '^[-a-zA-Z0-9_]+$';
      break;
    case 'timezone':
    case 'email':
      def.format = field.format;
      break;
    case 'url':
      def.format = 'uri';
      break;
    case 'hex_color':
      def.format = 'color';
      def.pattern ??= '^[0-9a-f]{6}$';
      break;
    case 'unicode_slug':
      // Django's unicode slug: letters (any script), digits, '_' and '-' (needs the 'u' flag).
      def.pattern ??= '^[-\\p{L}\\p{M}\\p{N}_]+$';
      break;
    default:
      warn(`${id}: unknown format ${String(field.format)}`);
  }
  if (typeof field.min_value === 'number') def.min = field.min_value;
  if (typeof field.max_value === 'number') def.max = field.max_value;
  if (typeof field.max_digits === 'number') def.maxDigits = field.max_digits;
  if (typeof field.decimal_places === 'number') def.decimalPlaces = field.decimal_places;
  if (Array.isArray(field.choices)) {
    def.choices = (field.choices as [string | number, string][]).map(([value, label]) => ({ value, label }));
    if (field.choice_repr === 'plain' || field.type === 'choice_raw') def.choiceRender = 'plain';
  }
  if (field.empty_as_null) def.emptyAsNull = true;
  if (field.type === 'tags') def.target = 'extras.tag';
  else if (typeof field.target === 'string' && (field.type === 'fk' || field.type === 'm2m')) def.target = field.target;
  if (field.type === 'fk') {
    if (typeof field.on_delete === 'string') def.onDelete = field.on_delete;
    if (field.representation === 'id') def.representation = 'id';
    if (field.one_to_one) def.oneToOne = true;
  }
  const allowed = field.allowed_values ?? field.choices_allowed;
  if (field.type === 'content_type' && Array.isArray(allowed)) def.allowedTypes = allowed;
  if (field.unique) def.unique = true;
  if (
    field.type === 'array' &&
    typeof field.items === 'string' &&
    field.items.startsWith('generic_object') &&
    Array.isArray(field.targets)
  ) {
    // A list of objects of several models (a cable's terminations): validated and rendered per item.
    def.type = 'generic_list';
    def.targets = field.targets;
  } else if (field.type === 'array') {
    const items = typeof field.items === 'string' ? ITEMS_MAP[field.items] : undefined;
    if (items) def.items = items;
    else warn(`${id}: unknown array items ${String(field.items)}`);
  }
  return { def: ordered(def) };
}

/** Keys in a fixed, readable order: identity and relation first, then flags, then constraints. */
const KEY_ORDER = [
  'name',
  'type',
  'target',
  'targets',
  'typeField',
  'idField',
  'allowedTypes',
  'onDelete',
  'representation',
  'oneToOne',
  'required',
  'readOnly',
  'writeOnly',
  'internal',
  'secret',
  'nullable',
  'blank',
  'emptyAsNull',
  'default',
  'defaultOnPut',
  'unique',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'min',
  'max',
  'maxDigits',
  'decimalPlaces',
  'items',
  'choiceRender',
  'choices',
];

function ordered(def: Record<string, Json>): Record<string, Json> {
  const rank = (key: string) => (KEY_ORDER.includes(key) ? KEY_ORDER.indexOf(key) : KEY_ORDER.length);
  return Object.fromEntries(Object.entries(def).sort(([a], [b]) => rank(a) - rank(b)));
}

/**
 * Constraints the reference states beyond single fields. A plain single-field constraint
 * becomes the field's `unique` flag instead (the registry derives its constraint).
 */
function uniqueConstraints(model: RefModel, fields: Record<string, Json>[]): Record<string, Json>[] {
  const out: Record<string, Json>[] = [];
  const seen = new Set<string>();
  const entries: RefUnique[] =
    model.unique_constraints ?? (model.unique_together ?? []).map((fieldList) => ({ fields: fieldList }));
  for (const entry of entries) {
    const caseInsensitive = new Set<string>(entry.case_insensitive ?? []);
    const names = entry.fields.map((name) => {
      const lower = /^lower\((\w+)\)$/.exec(name);
      if (lower) caseInsensitive.add(lower[1]);
      return lower ? lower[1] : name;
    });
    const constraint: Record<string, Json> = { fields: names };
    if (caseInsensitive.size) constraint.caseInsensitive = [...caseInsensitive];
    if (entry.condition) {
      const isNull = /^(\w+) is null$/.exec(entry.condition);
      if (isNull) constraint.whenNull = isNull[1];
      else warn(`${model.model}: unsupported unique condition '${entry.condition}'`);
    }
    if (entry.message) constraint.message = entry.message;
    const plainField =
      names.length === 1 && Object.keys(constraint).length === 1 ? fields.find((f) => f.name === names[0]) : undefined;
    if (plainField) {
      plainField.unique = true;
      continue;
    }
    const id = JSON.stringify(constraint);
    if (!seen.has(id)) {
      seen.add(id);
      out.push(constraint);
    }
  }
  return out;
}

interface Ordering {
  terms: string[];
  notes: string[];
  /** The one network or address field whose hidden sort keys the ordering uses. */
  network?: { field: string; type: 'cidr' | 'ip_address' };
}

/**
 * The default ordering in stored keys, always ending with id: networks and addresses by
 * their hidden sort keys, trees by name, natural names by the hidden '_name'.
 */
function orderingOf(model: RefModel, fields: Record<string, Json>[]): Ordering {
  const byName = new Map(fields.map((f) => [f.name as string, f]));
  const terms: string[] = [];
  const notes: string[] = [];
  const byId: string[] = [];
  let network: Ordering['network'];
  // Hidden sort keys hold one network or address per object: a model with several is ordered by their text.
  const networks = fields.filter((f) => (f.type === 'cidr' || f.type === 'ip_address') && !f.readOnly);
  const raw = model.ordering ?? [];
  if (isTree(model) || raw[0] === 'tree_id') {
    terms.push('name');
    notes.push('NetBox lists trees depth-first (tree_id, lft); here by name');
  } else {
    for (const term of raw) {
      const descending = term.startsWith('-');
      const name = term.replace(/^-/, '').replace(/\s*\(.*\)$/, '');
      const field = byName.get(name);
      if (name === '_name') terms.push('_name');
      else if (!field) warn(`${model.model}: ordering term '${term}' is not a field; left out`);
      else if (field.type === 'cidr' && networks.length === 1) {
        terms.push('_network', '_prefixlen');
        network = { field: name, type: 'cidr' };
      } else if (field.type === 'ip_address' && networks.length === 1) {
        terms.push('_address');
        notes.push('NetBox: host address only (mask ignored), IPv4 before IPv6');
        network = { field: name, type: 'ip_address' };
      } else {
        if (field.type === 'cidr' || field.type === 'ip_address')
          notes.push(`TODO NetBox orders ${name} numerically; here as text`);
        if (field.type === 'fk') byId.push(name);
        terms.push(`${descending ? '-' : ''}${name}`);
      }
    }
  }
  if (byId.length)
    notes.push(`NetBox orders ${byId.join(' and ')} by ${byId.length > 1 ? 'their' : 'its'} own ordering; here by id`);
  if (!terms.some((t) => t.replace(/^-/, '') === 'id')) terms.push('id');
  return { terms, notes, network };
}

/** Types a reference ordering parameter can name here: one stored value (not a JSON document or relation list). */
const ORDERABLE_PARAM_TYPES = new Set([
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

/** The reference's ordering parameters, when they differ from what the fields imply; else null. */
function orderingFieldsOf(model: RefModel, fields: Record<string, Json>[]): string[] | null {
  if (!model.ordering_params) return null;
  const usable = new Set(
    fields
      .filter((f) => ORDERABLE_PARAM_TYPES.has(f.type as string) && !f.writeOnly && !f.internal && !f.secret)
      .map((f) => f.name as string),
  );
  const params = model.ordering_params.filter((name) => usable.has(name));
  const implied = defaultOrderingFields(fields as unknown as FieldDefinition[]);
  return params.join() === implied.join() ? null : params;
}

const SEARCH_TYPES = new Set(['string', 'cidr', 'ip_address']);

function searchFields(model: RefModel, fields: Record<string, Json>[]): string[] {
  const q = model.filters?.q;
  const text = Array.isArray(q) ? q.join(' ') : typeof q === 'string' ? q : '';
  const searchable = new Set(
    fields
      .filter((f) => SEARCH_TYPES.has(f.type as string) && !f.writeOnly && !f.internal)
      .map((f) => f.name as string),
  );
  const found: string[] = [];
  for (const word of text.replace(/^search:\s*/, '').match(/[a-z_0-9]+/g) ?? []) {
    if (searchable.has(word) && !found.includes(word)) found.push(word);
  }
  return found;
}

// ---------------------------------------------------------------------------
// Hooks that follow from the reference; anything else is written by hand

interface HookCode {
  imports: Map<string, Set<string>>;
  lines: string[];
}

/** The display hook the reference's wording names; null for the default (the name). */
function displayHook(model: RefModel, use: (from: string, name: string) => void): string | null {
  const text = (model.display_format ?? model.display ?? '').trim();
  const hasName = model.fields.some((f) => f.name === 'name');
  if (/^the (?:[\w ]+ )?name$/.test(text) && hasName) return null;
  if (/^the component name, followed by ' \(<label>\)' when a label is set/.test(text)) {
    use('../hooks.js', 'nameWithLabel');
    return 'display: nameWithLabel,';
  }
  const orNumber = /^the (\w+) when set, otherwise '#<id>'$/.exec(text);
  if (orNumber) {
    use('../hooks.js', 'attributeOrNumber');
    return `display: attributeOrNumber('${orNumber[1]}'),`;
  }
  const attribute = text.startsWith('the model string')
    ? 'model'
    : text.includes('(cid)')
      ? 'cid'
      : text.startsWith('the prefix string')
        ? 'prefix'
        : text.startsWith('the address with mask')
          ? 'address'
          : null;
  if (attribute) {
    use('../hooks.js', 'displayAttribute');
    return `display: displayAttribute('${attribute}'),`;
  }
  return `// TODO display: ${text || '(not stated)'}\ndisplay: (obj) => String(obj.id),`;
}

function generatedHooks(model: RefModel, { terms: ordering, network }: Ordering): HookCode {
  const imports = new Map<string, Set<string>>();
  const use = (from: string, name: string) => {
    if (!imports.has(from)) imports.set(from, new Set());
    imports.get(from)!.add(name);
  };
  const lines: string[] = [];
  const display = displayHook(model, use);
  if (display) lines.push(...display.split('\n'));
  if (network?.type === 'cidr') {
    use('../values/ipNetworks.js', 'normalizeNetworkField');
    use('../values/ipNetworks.js', 'networkKeys');
    lines.push(`normalize: (obj) => normalizeNetworkField(obj, '${network.field}', '${model.verbose_name}'),`);
    lines.push(
      `derive: (obj) => networkKeys(obj.${network.field}) ?? { _family: null, _network: null, _last: null, _prefixlen: null },`,
    );
  } else if (network?.type === 'ip_address') {
    use('../values/ipNetworks.js', 'normalizeHostField');
    use('../values/ipNetworks.js', 'hostKeys');
    lines.push(`normalize: (obj) => normalizeHostField(obj, '${network.field}', '${model.verbose_name}'),`);
    lines.push(
      `derive: (obj) => hostKeys(obj.${network.field}) ?? { _family: null, _address: null, _prefixlen: null },`,
    );
  }
  if (ordering.includes('_name')) {
    // NetBox naturalizes interface names by their slot/position parts, other names by digit runs.
    const fn = /interface(template)?$/.test(model.model) ? 'naturalInterfaceKey' : 'naturalSortKey';
    use('../values/naturalSortKey.js', fn);
    lines.push(`derive: (obj) => ({ _name: ${fn}(obj.name) }),`);
  }
  if (isTree(model)) {
    use('../hooks.js', 'treeParentErrors');
    lines.push(`validate: (obj, view) => treeParentErrors('${model.model}', '${model.verbose_name}', obj, view),`);
    use('../hooks.js', 'treeDepth');
    lines.push(`compute: { _depth: treeDepth('${model.model}') },`);
  }
  return { imports, lines };
}

function constName(field: string): string {
  return `${field.toUpperCase()}_CHOICES`;
}

/** Choice lists declared in an app's choices.ts: their export names by their JSON. */
export type AppChoices = Map<string, string>;

/** What generating one model produces. */
export interface Generated {
  key: string;
  /** The model file and its text. */
  file: string;
  text: string;
  /** How src/models/index.ts registers it. */
  exportName: string;
  app: string;
  /** Its line in the CRUD test's samples, when it is change-logged. */
  sample: string | null;
}

export function render(ref: Map<string, RefModel>, model: RefModel, appChoices: AppChoices = new Map()): Generated {
  const key = model.model;
  const [appLabel, modelName] = key.split('.');
  const [, api, urlApp, segment] = model.path.split('/');
  if (api !== 'api' || !urlApp || !segment) throw new Error(`${key}: unexpected path ${model.path}`);
  const exportName = RESERVED.has(modelName) ? `${modelName}Model` : modelName;

  const converted = model.fields.map((field) => convertField(ref, model, field));
  const fields = converted.map((c) => c.def);
  const unique = uniqueConstraints(model, fields);
  const ordering = orderingOf(model, fields);
  const orderingFields = orderingFieldsOf(model, fields);
  const search = searchFields(model, fields);
  const hooks = generatedHooks(model, ordering);

  const imports = new Imports();
  const consts: string[] = [];

  /** Source lines of converted[from, to), each indented by `indent`. */
  const fieldLines = (from: number, to: number, indent: string): string[] => {
    const lines: string[] = [];
    for (let i = from; i < to; i++) {
      const run = sharedRunAt(fields.slice(0, to), i);
      if (run) {
        imports.use('../commonFields.js', run.name);
        lines.push(`${indent}...${run.name},`);
        i += run.length - 1;
        continue;
      }
      const { def, note } = converted[i];
      if (note) lines.push(`${indent}// ${note}`);
      const reuse = sharedField(def);
      if (reuse) {
        imports.use('../commonFields.js', reuse.name);
        lines.push(`${indent}${reuse.code},`);
        continue;
      }
      const out: Record<string, Literal> = { ...def };
      const choices = def.choices as Json[] | undefined;
      const shared = choices ? appChoices.get(JSON.stringify(choices)) : undefined;
      if (shared) {
        imports.use('./choices.js', shared);
        out.choices = new Raw(shared);
      } else if (choices && choices.length > 6) {
        const name = constName(def.name as string);
        imports.use('../fieldDefinition.js', 'Choice');
        consts.push(`const ${name}: Choice[] = ${literal(choices, '')};`);
        out.choices = new Raw(name);
      }
      lines.push(`${indent}${literal(out, indent)},`);
    }
    return lines;
  };

  const body: string[] = [];
  const list = (name: string, values: Literal) => body.push(`  ${name}: ${literal(values, '  ')},`);
  const shape = organizationalShape(fields);
  const nested = shape ? null : nestedGroupShape(model, fields, unique);
  if (nested) {
    imports.use('../nestedGroupModel.js', 'nestedGroupModel');
    body.push(`export const ${exportName} = nestedGroupModel({`);
    body.push(`  key: ${quote(key)},`);
    if (urlApp !== appLabel) body.push(`  app: ${quote(urlApp)},`);
    body.push(`  path: ${quote(segment)},`);
    body.push(`  verboseName: ${quote(model.verbose_name)},`);
    if (model.verbose_name_plural !== `${model.verbose_name}s`)
      body.push(`  verboseNamePlural: ${quote(model.verbose_name_plural)},`);
    if (nested.siblings) body.push('  uniqueAmongSiblings: true,');
    if (nested.counts)
      body.push('  counts: [', ...fieldLines(fields.length - 1 - nested.counts, fields.length - 1, '    '), '  ],');
    const counts = fields.slice(fields.length - 1 - nested.counts, -1).map((f) => f.name as string);
    const brief = model.brief_fields ?? [];
    if (brief.join() !== ['id', 'url', 'display', 'name', 'slug', ...counts, '_depth'].join()) list('brief', brief);
    if (search.join() !== 'name,slug') list('search', search);
    unique.length = 0; // said by the builder
    hooks.lines.length = 0;
    hooks.imports.clear();
  } else if (shape) {
    imports.use('../organizationalModel.js', 'organizationalModel');
    body.push(`export const ${exportName} = organizationalModel({`);
    body.push(`  key: ${quote(key)},`);
    if (urlApp !== appLabel) body.push(`  app: ${quote(urlApp)},`);
    body.push(`  path: ${quote(segment)},`);
    body.push(`  verboseName: ${quote(model.verbose_name)},`);
    if (model.verbose_name_plural !== `${model.verbose_name}s`)
      body.push(`  verboseNamePlural: ${quote(model.verbose_name_plural)},`);
    if (shape.own) body.push('  fields: [', ...fieldLines(5, 5 + shape.own, '    '), '  ],');
    if (shape.counts)
      body.push('  counts: [', ...fieldLines(fields.length - shape.counts, fields.length, '    '), '  ],');
    const brief = model.brief_fields ?? [];
    if (brief.join() !== 'id,url,display,name,slug') list('brief', brief);
    for (const note of ordering.notes) body.push(`  // ${note}`);
    if (ordering.terms.join() !== 'name,id') list('ordering', ordering.terms);
    if (search.join() !== 'name,slug') list('search', search);
  } else {
    imports.use('../modelDefinition.js', 'ModelDefinition');
    body.push(`export const ${exportName}: ModelDefinition = {`);
    body.push(`  key: ${quote(key)},`);
    body.push(`  app: ${quote(urlApp)},`);
    body.push(`  model: ${quote(modelName)},`);
    body.push(`  path: ${quote(segment)},`);
    body.push(`  verboseName: ${quote(model.verbose_name)},`);
    body.push(`  verboseNamePlural: ${quote(model.verbose_name_plural)},`);
    body.push('  fields: [', ...fieldLines(0, fields.length, '    '), '  ],');
    list('brief', model.brief_fields ?? []);
    for (const note of ordering.notes) body.push(`  // ${note}`);
    list('ordering', ordering.terms);
    list('search', search);
  }
  if (orderingFields) list('orderingFields', orderingFields);
  if (unique.length) list('unique', unique as Literal);
  body.push(...filtersBlock(ref, model, fields, search, imports));
  if (hooks.lines.length) body.push('  hooks: {', ...hooks.lines.map((line) => `    ${line}`), '  },');
  imports.merge(hooks.imports);
  body.push(shape || nested ? '});' : '};');

  const header =
    "// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.";
  const text = [header, ...imports.lines(), '', ...(consts.length ? [...consts, ''] : []), ...body, ''].join('\n');
  const changeLogged = fields.some((f) => f.name === 'created') && fields.some((f) => f.type === 'tags');
  return {
    key,
    file: path.join(MODELS_DIR, urlApp, `${modelName}.ts`),
    text,
    exportName,
    app: urlApp,
    sample: changeLogged ? crudSampleLine(key, model.verbose_name, fields) : null,
  };
}

/** The `filters` entry (see referenceFilters.ts), with a TODO naming what is left to declare by hand. */
function filtersBlock(
  ref: Map<string, RefModel>,
  model: RefModel,
  fields: Record<string, Json>[],
  search: string[],
  imports: Imports,
): string[] {
  const { entries, imports: names, unanswered } = referenceFilters(ref, model, fields, search);
  for (const name of names) imports.use('../filterSpecs.js', name);
  const lines: string[] = [];
  if (unanswered.length) {
    warn(`${model.model}: filters to declare by hand: ${unanswered.join(', ')}`);
    lines.push(
      `  // TODO filters NetBox has that are not answered yet (npx tsx scripts/check-filters.ts --suggest): ${unanswered.join(', ')}`,
    );
  }
  if (entries.length === 1 && !entries[0]!.includes('\n') && !entries[0]!.includes(':'))
    lines.push(`  filters: { ${entries[0]} },`);
  else if (entries.length) lines.push('  filters: {', ...entries.map((e) => `    ${e},`), '  },');
  return lines;
}

/** The choice lists of src/models/<app>/choices.ts (none when the app has no such file). */
export async function loadAppChoices(app: string): Promise<AppChoices> {
  const file = path.join(MODELS_DIR, app, 'choices.ts');
  const choices: AppChoices = new Map();
  if (!existsSync(file)) return choices;
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  for (const [name, value] of Object.entries(module)) {
    if (Array.isArray(value))
      choices.set(JSON.stringify((value as Choice[]).map(({ value: v, label }) => ({ value: v, label }))), name);
  }
  return choices;
}

/** Writes (or with `dryRun` prints) each model's file, its registration and its CRUD sample. */
export async function generate(keys: string[], dryRun: boolean): Promise<boolean> {
  const ref = loadReference();
  let ok = true;
  let index = readFileSync(INDEX_FILE, 'utf8');
  let samples = readFileSync(SAMPLES_FILE, 'utf8');
  const relative = (file: string) => path.relative(process.cwd(), file);
  for (const key of keys) {
    const model = ref.get(key);
    if (!model) {
      console.error(`${key}: not in the reference`);
      ok = false;
      continue;
    }
    const generated = render(ref, model, await loadAppChoices(model.path.split('/')[2]));
    if (dryRun) console.log(`// ===== ${relative(generated.file)}\n${generated.text}`);
    else if (existsSync(generated.file)) console.log(`${key}: ${relative(generated.file)} exists, left alone`);
    else {
      mkdirSync(path.dirname(generated.file), { recursive: true });
      writeFileSync(generated.file, generated.text);
      console.log(`${key}: wrote ${relative(generated.file)}`);
    }
    index = registerModel(index, {
      exportName: generated.exportName,
      app: generated.app,
      file: path.basename(generated.file, '.ts'),
    });
    if (generated.sample) samples = addCrudSample(samples, key, generated.sample);
    else console.log(`${key}: not change-logged, no CRUD sample`);
  }
  if (dryRun) {
    console.log(`// ===== ${relative(INDEX_FILE)}\n${index}`);
    console.log(`// ===== ${relative(SAMPLES_FILE)}\n${samples}`);
  } else {
    writeFileSync(INDEX_FILE, index);
    writeFileSync(SAMPLES_FILE, samples);
  }
  for (const message of warnings) console.warn(`warning: ${message}`);
  return ok;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const keys = args.filter((a) => !a.startsWith('--'));
  if (!keys.length) {
    console.error('usage: npx tsx scripts/import-reference.ts [--dry-run] <app_label.model> ...');
    process.exit(2);
  }
  if (!(await generate(keys, args.includes('--dry-run')))) process.exit(1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
