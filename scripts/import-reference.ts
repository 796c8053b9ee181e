/**
 * Writes model definition files from the NetBox 3.4 REST API reference.
 *
 *   npx tsx scripts/import-reference.ts dcim.site ipam.prefix ...
 *   npx tsx scripts/import-reference.ts --dry-run dcim.site   (print instead of writing)
 *
 * For each requested '<app_label>.<model>' it writes src/models/<url app>/<model>.ts
 * unless that file exists already: generated files are a starting point and hand edits
 * (hooks, corrections) live in them, so they are never overwritten.
 *
 * The reference folder defaults to ../../shared/reference/netbox-3.4/ relative to this
 * script; NETBOX_REFERENCE_DIR overrides it.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as commonFields from '../src/models/commonFields.js';
import type { FieldDefinition } from '../src/models/types.js';

// ---------------------------------------------------------------------------
// Reference shapes (only what this script reads)

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface RefField {
  name: string;
  type: string;
  [key: string]: Json | undefined;
}

interface RefModel {
  model: string;
  path: string;
  verbose_name: string;
  verbose_name_plural: string;
  display?: string;
  display_format?: string;
  fields: RefField[];
  brief_fields: string[] | null;
  filters?: Record<string, Json>;
  ordering?: string[];
  ordering_params?: string[];
  unique_together?: string[][];
  unique_constraints?: RefUnique[];
}

interface RefUnique {
  fields: string[];
  condition?: string;
  message?: string;
  case_insensitive?: string[];
}

const REFERENCE_DIR =
  process.env.NETBOX_REFERENCE_DIR ?? fileURLToPath(new URL('../../shared/reference/netbox-3.4/', import.meta.url));
const MODELS_DIR = fileURLToPath(new URL('../src/models/', import.meta.url));

function loadReference(): Map<string, RefModel> {
  const models = new Map<string, RefModel>();
  for (const file of readdirSync(REFERENCE_DIR).filter((f) => f.endsWith('.json')).sort()) {
    const data = JSON.parse(readFileSync(path.join(REFERENCE_DIR, file), 'utf8')) as { models?: RefModel[] };
    for (const model of data.models ?? []) {
      if (typeof model.model === 'string' && Array.isArray(model.fields)) models.set(model.model, model);
    }
  }
  return models;
}

// ---------------------------------------------------------------------------
// Hand-kept facts the reference states in prose (or NetBox internals it does not model)

/** Default ordering in terms of stored fields and hidden derived keys; always total. */
const ORDERING: Record<string, string[]> = {
  'extras.customfield': ['group_name', 'weight', 'name', 'id'],
  'tenancy.tenantgroup': ['name', 'id'], // NetBox: tree order (tree_id, lft)
  'tenancy.tenant': ['name', 'id'],
  'dcim.region': ['name', 'id'], // NetBox: tree order (tree_id, lft)
  'dcim.sitegroup': ['name', 'id'], // NetBox: tree order (tree_id, lft)
  'dcim.site': ['_name', 'id'],
  'dcim.location': ['name', 'id'], // NetBox: tree order (tree_id, lft)
  'dcim.rackrole': ['name', 'id'],
  'dcim.rack': ['site', 'location', '_name', 'id'],
  'dcim.manufacturer': ['name', 'id'],
  'dcim.devicetype': ['manufacturer', 'model', 'id'],
  'dcim.devicerole': ['name', 'id'],
  'dcim.platform': ['name', 'id'],
  'dcim.device': ['_name', 'id'],
  'dcim.interface': ['device', '_name', 'id'],
  'ipam.vrf': ['name', 'rd', 'id'],
  'ipam.rir': ['name', 'id'],
  'ipam.aggregate': ['_network', '_prefixlen', 'id'],
  'ipam.role': ['weight', 'name', 'id'],
  'ipam.vlangroup': ['name', 'id'],
  'ipam.vlan': ['site', 'group', 'vid', 'id'],
  'ipam.prefix': ['vrf', '_network', '_prefixlen', 'id'],
  'ipam.ipaddress': ['_address', 'id'],
  'circuits.provider': ['name', 'id'],
  'circuits.circuittype': ['name', 'id'],
  'circuits.circuit': ['provider', 'cid', 'id'],
  'extras.tag': ['name', 'id'],
  'auth.user': ['username', 'id'],
  'users.token': ['id'],
};

/** Notes written above the ordering where it departs from NetBox. */
const ORDERING_NOTES: Record<string, string> = {
  'dcim.rack': "NetBox orders site by natural name and location by tree order (nulls last); here by id",
  'dcim.devicetype': 'NetBox orders manufacturer by name; here by id',
  'dcim.interface': 'NetBox orders device by natural name; here by id',
  'ipam.vlan': 'NetBox orders site/group by their own ordering, nulls last; here by id, nulls first',
  'circuits.circuit': 'NetBox orders provider by name; here by id',
  'ipam.ipaddress': 'NetBox: host address only (mask ignored), IPv4 before IPv6',
};

interface CountSpec {
  model: string;
  via: string;
  where?: Record<string, string>;
  note?: string;
}

/** Count fields whose counted model/field cannot be read off the name. */
const COUNT_OVERRIDES: Record<string, CountSpec> = {
  'dcim.site.circuit_count': {
    model: 'circuits.circuittermination',
    via: 'site',
    note: 'NetBox counts distinct circuits with a termination at the site; this counts terminations',
  },
  'dcim.site.virtualmachine_count': {
    model: 'virtualization.virtualmachine',
    via: 'site',
    note: "NetBox counts VMs whose cluster is at the site; this counts VMs by their own site",
  },
  'dcim.interface.count_ipaddresses': {
    model: 'ipam.ipaddress',
    via: 'assigned_object_id',
    where: { assigned_object_type: 'dcim.interface' },
  },
  'dcim.interface.count_fhrp_groups': {
    model: 'ipam.fhrpgroupassignment',
    via: 'interface_id',
    where: { interface_type: 'dcim.interface' },
  },
};

/** Read-only values rendered from data this registry does not hold (yet). */
const COMPUTED: Record<string, { value: Json; note?: string }> = {
  'extras.tag.tagged_items': { value: 0, note: 'NetBox counts tag assignments over every model; not computed yet' },
  'ipam.prefix.children': { value: 0, note: 'NetBox caches the number of child prefixes; not computed yet' },
  'ipam.prefix._depth': { value: 0, note: 'NetBox caches the number of containing prefixes; not computed yet' },
  'dcim.device.primary_ip': { value: null, note: 'primary_ip6 ?? primary_ip4 as a nested IP address; rendered null for now' },
  'dcim.device.config_context': { value: {}, note: 'see the compute hook' },
  'dcim.devicetype.front_image': { value: null, note: 'image upload (multipart) is not supported' },
  'dcim.devicetype.rear_image': { value: null, note: 'image upload (multipart) is not supported' },
};

/** Read-only lists of objects pointing here. */
const REVERSE: Record<string, { target: string; via: string }> = {
  'ipam.ipaddress.nat_outside': { target: 'ipam.ipaddress', via: 'nat_inside' },
};

/** Reference defaults that are not literal values (set by hooks or the write side). */
const SKIP_DEFAULT = new Set(['auth.user.date_joined', 'users.token.key']);

/** Field facts beyond the reference, merged over the converted field. */
const FIELD_OVERRIDES: Record<string, Record<string, Json>> = {
  'auth.user.password': { secret: 'password' },
  'users.token.key': { secret: 'token_key', pattern: '^[0-9a-fA-F]{40}$' },
};

/** Stored-only fields appended to a model's list. */
const EXTRA_FIELDS: Record<string, Record<string, Json>[]> = {
  'auth.user': [{ name: 'is_superuser', type: 'boolean', internal: true, default: false }],
  'users.token': [
    { name: 'key_last6', type: 'string', internal: true, nullable: true },
    { name: 'key_digest', type: 'string', internal: true, nullable: true },
    { name: 'key_cipher', type: 'string', internal: true, nullable: true },
  ],
};

/** Identifiers that cannot name an exported const in an ES module. */
const RESERVED = new Set(['interface', 'package', 'private', 'protected', 'public', 'static', 'implements', 'let', 'yield']);

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

/** NetBox's nested groups: a self-referencing parent plus a rendered tree depth. */
function isTree(model: RefModel): boolean {
  return (
    model.fields.some((f) => f.name === 'parent' && f.type === 'fk' && f.target === model.model) &&
    model.fields.some((f) => f.name === '_depth')
  );
}

function findCount(ref: Map<string, RefModel>, model: RefModel, field: RefField): CountSpec | null {
  const id = `${model.model}.${field.name}`;
  if (COUNT_OVERRIDES[id]) return COUNT_OVERRIDES[id];
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
  if (name === 'display' && field.type === 'string' && readOnly) return { def: { name, type: 'display', readOnly: true } };

  // A change-logged record's `created` reads as a date (a token's stays a datetime).
  if (name === 'created' && field.type === 'datetime' && readOnly && field.nullable) {
    return { def: { name, type: 'date', readOnly: true, nullable: true } };
  }
  if (REVERSE[id]) return { def: { name, type: 'reverse', readOnly: true, ...REVERSE[id] } };
  if (COMPUTED[id]) {
    const def: Record<string, Json> = { name, type: 'computed', readOnly: true };
    if (field.nullable || COMPUTED[id].value === null) def.nullable = true;
    def.value = COMPUTED[id].value;
    return { def, note: COMPUTED[id].note };
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
  if (field.default !== undefined && !readOnly && !SKIP_DEFAULT.has(id)) def.default = field.default;
  if (field.default_applies_on_put) def.defaultOnPut = true;
  if (typeof field.max_length === 'number' && field.type !== 'image') def.maxLength = field.max_length;
  if (typeof field.min_length === 'number') def.minLength = field.min_length;
  if (typeof field.pattern === 'string') def.pattern = field.pattern;
  switch (field.format) {
    case undefined:
      break;
    case 'slug':
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
  if (field.type === 'array') {
    const items = typeof field.items === 'string' ? ITEMS_MAP[field.items] : undefined;
    if (items) def.items = items;
    else warn(`${id}: unknown array items ${String(field.items)}`);
  }
  Object.assign(def, FIELD_OVERRIDES[id] ?? {});
  return { def: ordered(def) };
}

/** Keys in a fixed, readable order: identity and relation first, then flags, then constraints. */
const KEY_ORDER = [
  'name', 'type', 'target', 'targets', 'typeField', 'idField', 'allowedTypes', 'onDelete', 'representation',
  'oneToOne', 'required', 'readOnly', 'writeOnly', 'internal', 'secret', 'nullable', 'blank', 'emptyAsNull',
  'default', 'defaultOnPut', 'unique', 'minLength', 'maxLength', 'pattern', 'format', 'min', 'max', 'maxDigits',
  'decimalPlaces', 'items', 'choiceRender', 'choices',
];

function ordered(def: Record<string, Json>): Record<string, Json> {
  const rank = (key: string) => (KEY_ORDER.includes(key) ? KEY_ORDER.indexOf(key) : KEY_ORDER.length);
  return Object.fromEntries(Object.entries(def).sort(([a], [b]) => rank(a) - rank(b)));
}

function uniqueConstraints(model: RefModel, fields: Record<string, Json>[]): Record<string, Json>[] {
  const out: Record<string, Json>[] = [];
  const seen = new Set<string>();
  const add = (constraint: Record<string, Json>) => {
    const id = JSON.stringify(constraint);
    if (!seen.has(id)) {
      seen.add(id);
      out.push(constraint);
    }
  };
  for (const field of fields) if (field.unique) add({ fields: [field.name as string] });
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
    add(constraint);
  }
  return out;
}

/** Types whose values live on the stored object (orderable, searchable). */
const STORED_TYPES = new Set([
  'id',
  'string',
  'integer',
  'decimal',
  'boolean',
  'date',
  'datetime',
  'json',
  'choice',
  'cidr',
  'ip_address',
  'mac_address',
  'wwn',
  'fk',
  'content_type',
  'array',
]);

function orderingFields(model: RefModel, fields: Record<string, Json>[]): string[] {
  const orderable = new Map(
    fields
      .filter((f) => STORED_TYPES.has(f.type as string) && !f.writeOnly && !f.internal && !f.secret && f.type !== 'json')
      .map((f) => [f.name as string, f]),
  );
  const names = model.ordering_params ?? fields.map((f) => f.name as string);
  return names.filter((name) => orderable.has(name));
}

const SEARCH_TYPES = new Set(['string', 'cidr', 'ip_address']);

function searchFields(model: RefModel, fields: Record<string, Json>[]): string[] {
  const q = model.filters?.q;
  const text = Array.isArray(q) ? q.join(' ') : typeof q === 'string' ? q : '';
  const searchable = new Set(
    fields.filter((f) => SEARCH_TYPES.has(f.type as string) && !f.writeOnly && !f.internal).map((f) => f.name as string),
  );
  const found: string[] = [];
  for (const word of text.replace(/^search:\s*/, '').match(/[a-z_0-9]+/g) ?? []) {
    if (searchable.has(word) && !found.includes(word)) found.push(word);
  }
  return found;
}

// ---------------------------------------------------------------------------
// Hooks that follow from the reference; anything else is written by hand

function displayAttributeOf(model: RefModel): string | null {
  const text = (model.display_format ?? model.display ?? '').trim();
  if (/^the (?:[\w ]+ )?name$/.test(text)) return 'name';
  if (text.startsWith('the model string')) return 'model';
  if (text.includes('(cid)')) return 'cid';
  if (text.startsWith('the prefix string')) return 'prefix';
  if (text.startsWith('the address with mask')) return 'address';
  return null;
}

interface HookCode {
  imports: Map<string, Set<string>>;
  lines: string[];
}

function generatedHooks(model: RefModel, ordering: string[]): HookCode {
  const imports = new Map<string, Set<string>>();
  const use = (from: string, name: string) => {
    if (!imports.has(from)) imports.set(from, new Set());
    imports.get(from)!.add(name);
  };
  const lines: string[] = [];
  const attribute = displayAttributeOf(model);
  if (attribute) {
    use('../hooks.js', 'displayAttribute');
    lines.push(`display: displayAttribute('${attribute}'),`);
  } else {
    lines.push(`// TODO display: ${model.display_format ?? model.display ?? '(not stated)'}`);
    lines.push('display: (obj) => String(obj.id),');
  }
  if (ordering.includes('_name')) {
    const fn = model.model === 'dcim.interface' ? 'naturalInterfaceKey' : 'naturalSortKey';
    use('../naturalSortKey.js', fn);
    lines.push(`derive: (obj) => ({ _name: ${fn}(obj.name) }),`);
  }
  if (isTree(model)) {
    use('../hooks.js', 'treeParentErrors');
    lines.push(
      `validate: (obj, view) => treeParentErrors('${model.model}', '${model.verbose_name}', obj, view),`,
    );
    use('../hooks.js', 'treeDepth');
    lines.push(`compute: { _depth: treeDepth('${model.model}') },`);
  }
  return { imports, lines };
}

// ---------------------------------------------------------------------------
// TypeScript output

class Raw {
  constructor(readonly code: string) {}
}

type Literal = Json | Raw | Literal[] | { [key: string]: Literal };

function quote(text: string): string {
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

function literal(value: Literal, indent: string): string {
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

function constName(field: string): string {
  return `${field.toUpperCase()}_CHOICES`;
}

function render(ref: Map<string, RefModel>, model: RefModel): { file: string; text: string } {
  const key = model.model;
  const [, modelName] = key.split('.');
  const [, api, urlApp, segment] = model.path.split('/');
  if (api !== 'api' || !urlApp || !segment) throw new Error(`${key}: unexpected path ${model.path}`);
  const exportName = RESERVED.has(modelName) ? `${modelName}Model` : modelName;

  const converted = model.fields.map((field) => convertField(ref, model, field));
  for (const extra of EXTRA_FIELDS[key] ?? []) converted.push({ def: ordered(extra) });
  const fields = converted.map((c) => c.def);

  const ordering = ORDERING[key];
  if (!ordering) throw new Error(`${key}: no ORDERING entry`);

  const consts: string[] = [];
  const fieldLines: string[] = [];
  const shared = new Set<string>();
  for (let i = 0; i < converted.length; i++) {
    const run = sharedRunAt(converted.map((c) => c.def), i);
    if (run) {
      shared.add(run.name);
      fieldLines.push(`    ...${run.name},`);
      i += run.length - 1;
      continue;
    }
    const { def, note } = converted[i];
    const reuse = sharedField(def);
    if (reuse) {
      shared.add(reuse.name);
      if (note) fieldLines.push(`    // ${note}`);
      fieldLines.push(`    ${reuse.code},`);
      continue;
    }
    const out: Record<string, Literal> = { ...def };
    const choices = def.choices as Json[] | undefined;
    if (choices && choices.length > 6) {
      const name = constName(def.name as string);
      consts.push(`const ${name}: Choice[] = ${literal(choices, '')};`);
      out.choices = new Raw(name);
    }
    if (note) fieldLines.push(`    // ${note}`);
    fieldLines.push(`    ${literal(out, '    ')},`);
  }

  const hooks = generatedHooks(model, ordering);
  const imports = [
    `import type { ${consts.length ? 'Choice, ' : ''}ModelDefinition } from '../types.js';`,
    ...(shared.size ? [`import { ${[...shared].sort().join(', ')} } from '../commonFields.js';`] : []),
    ...[...hooks.imports].map(([from, names]) => `import { ${[...names].sort().join(', ')} } from '${from}';`),
  ];

  const body: string[] = [];
  body.push(`export const ${exportName}: ModelDefinition = {`);
  body.push(`  key: ${quote(key)},`);
  body.push(`  app: ${quote(urlApp)},`);
  body.push(`  model: ${quote(modelName)},`);
  body.push(`  path: ${quote(segment)},`);
  body.push(`  verboseName: ${quote(model.verbose_name)},`);
  body.push(`  verboseNamePlural: ${quote(model.verbose_name_plural)},`);
  body.push('  fields: [');
  body.push(...fieldLines);
  body.push('  ],');
  body.push(`  brief: ${literal(model.brief_fields ?? [], '  ')},`);
  if (ORDERING_NOTES[key]) body.push(`  // ${ORDERING_NOTES[key]}`);
  if (isTree(model)) body.push("  // NetBox lists trees depth-first (tree_id, lft); here by name");
  body.push(`  ordering: ${literal(ordering, '  ')},`);
  body.push(`  orderingFields: ${literal(orderingFields(model, fields), '  ')},`);
  const unique = uniqueConstraints(model, fields);
  if (unique.length) body.push(`  unique: ${literal(unique as Literal, '  ')},`);
  body.push(`  search: ${literal(searchFields(model, fields), '  ')},`);
  body.push('  hooks: {');
  body.push(...hooks.lines.map((line) => `    ${line}`));
  body.push('  },');
  body.push('};');

  const header =
    "// Field facts come from NetBox 3.4's REST API reference (scripts/import-reference.ts); hooks are hand-written.";
  const text = [header, ...imports, '', ...(consts.length ? [...consts, ''] : []), ...body, ''].join('\n');
  return { file: path.join(MODELS_DIR, urlApp, `${modelName}.ts`), text };
}

// ---------------------------------------------------------------------------
// Declarations that src/models/commonFields.ts already spells: emit a reference to them.

/** Key order and equivalent defaults do not make two declarations different. */
function canonical(def: Record<string, unknown>): string {
  const copy: Record<string, unknown> = { ...def };
  if (copy.type === 'tags' && copy.default === undefined) copy.default = [];
  if (copy.type === 'custom_fields' && copy.default === undefined) copy.default = {};
  return JSON.stringify(Object.keys(copy).sort().map((k) => [k, copy[k]]));
}

const SHARED_RUNS: Array<[string, FieldDefinition[]]> = [
  ['identityFields', commonFields.identityFields],
  ['changeLoggedFields', commonFields.changeLoggedFields],
];

const SHARED_FIELDS: Array<[string, FieldDefinition]> = [
  ['slugField', commonFields.slugField],
  ['familyField', commonFields.familyField],
  ['weightUnitField', commonFields.weightUnitField],
  ['depthField', commonFields.depthField],
  ['siteStatusField', commonFields.siteStatusField],
];

function sharedRunAt(defs: Record<string, unknown>[], at: number): { name: string; length: number } | null {
  for (const [name, run] of SHARED_RUNS) {
    if (run.every((field, j) => defs[at + j] && canonical(defs[at + j]) === canonical(field as unknown as Record<string, unknown>))) {
      return { name, length: run.length };
    }
  }
  return null;
}

function sharedField(def: Record<string, unknown>): { name: string; code: string } | null {
  for (const [name, field] of SHARED_FIELDS) {
    if (canonical(def) === canonical(field as unknown as Record<string, unknown>)) return { name, code: name };
  }
  if (def.name === 'name' && canonical(def) === canonical(commonFields.uniqueNameField(Number(def.maxLength)) as unknown as Record<string, unknown>)) {
    return { name: 'uniqueNameField', code: def.maxLength === 100 ? 'uniqueNameField()' : `uniqueNameField(${String(def.maxLength)})` };
  }
  const count = def.count as { model: string; via: string; where?: unknown } | undefined;
  if (def.type === 'count' && count && !count.where && canonical(def) === canonical(commonFields.countField(String(def.name), count.model, count.via) as unknown as Record<string, unknown>)) {
    return { name: 'countField', code: `countField(${quote(String(def.name))}, ${quote(count.model)}, ${quote(count.via)})` };
  }
  return null;
}

function main(): void {
  const args = process.argv.slice(2);
  const dryRun = args.includes('--dry-run');
  const keys = args.filter((a) => !a.startsWith('--'));
  if (!keys.length) {
    console.error('usage: npx tsx scripts/import-reference.ts [--dry-run] <app_label.model> ...');
    process.exit(2);
  }
  const ref = loadReference();
  let failed = false;
  for (const key of keys) {
    const model = ref.get(key);
    if (!model) {
      console.error(`${key}: not in the reference`);
      failed = true;
      continue;
    }
    const { file, text } = render(ref, model);
    if (dryRun) {
      console.log(`// ===== ${path.relative(process.cwd(), file)}\n${text}`);
    } else if (existsSync(file)) {
      console.log(`${key}: ${path.relative(process.cwd(), file)} exists, left alone`);
    } else {
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
      console.log(`${key}: wrote ${path.relative(process.cwd(), file)}`);
    }
  }
  for (const message of warnings) console.warn(`warning: ${message}`);
  if (failed) process.exit(1);
}

main();
