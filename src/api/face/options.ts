/**
 * OPTIONS metadata as NetBox's metadata class gives it (no action permission needed), derived from the model registry: the view's name,
 * renderers and parsers, and — for a caller that may write — the fields a POST (list
 * URL) or PUT takes, with their type, constraints and choices. pynetbox's
 * `Endpoint.choices()` reads `actions.POST.<field>.choices`.
 */
import type { FieldDefinition } from '../../models/fieldDefinition.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';

export interface FieldMetadata {
  type: string;
  required: boolean;
  read_only: boolean;
  label: string;
  help_text?: string;
  min_length?: number;
  max_length?: number;
  min_value?: number;
  max_value?: number;
  child?: { type: string; required: boolean; read_only: boolean; label?: string };
  choices?: { value: string | number; display_name: string }[];
}

export const RENDERS = ['application/json', 'text/html'];
/** Request bodies are JSON only (multipart uploads are not served). */
export const PARSES = ['application/json'];

/** Computed on read: never written by a client. */
const READ_ONLY_TYPES = new Set(['id', 'url', 'display', 'count', 'reverse', 'computed', 'generic_fk']);

/** DRF's label: the verbose name (here: the field name with '_' → ' ') with its first letter capitalised. */
export function fieldLabel(field: FieldDefinition): string {
  if (field.label) return field.label;
  if (field.name === 'id') return 'ID';
  const words = field.name.replace(/^_+/, '').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** DRF SimpleMetadata's type names for each kind of field. */
export function metadataType(field: FieldDefinition): string {
  switch (field.type) {
    case 'id':
    case 'integer':
    case 'count':
      return 'integer';
    case 'string':
      if (field.image) return 'image upload';
      if (field.format === 'slug') return 'slug';
      if (field.format === 'email') return 'email';
      if (field.format === 'uri') return 'url';
      return 'string';
    case 'cidr':
    case 'ip_address':
    case 'mac_address':
    case 'wwn':
      return 'string';
    case 'decimal':
      return 'decimal';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    case 'array':
      return 'list';
    case 'choice':
      return field.choiceRender === 'plain' ? 'choice' : 'field';
    case 'computed':
      return typeof field.value === 'number' ? 'integer' : typeof field.value === 'boolean' ? 'boolean' : 'field';
    default:
      // url, display, json, relations, content types, custom fields, generic relations
      return 'field';
  }
}

/**
 * Content types as choices, sorted by display name ('dcim | site'): NetBox lists them for
 * single-valued content-type fields that accept any model (a custom field's object_type).
 */
export function contentTypeChoices(registry: ModelRegistry): { value: string; display_name: string }[] {
  return registry
    .all()
    .map((d) => ({ value: d.key, display_name: `${d.key.split('.')[0]} | ${d.verboseName}` }))
    .sort((a, b) => (a.display_name < b.display_name ? -1 : a.display_name > b.display_name ? 1 : 0));
}

export function fieldMetadata(field: FieldDefinition, registry?: ModelRegistry): FieldMetadata {
  const readOnly = field.readOnly === true || READ_ONLY_TYPES.has(field.type);
  const info: FieldMetadata = {
    type: metadataType(field),
    required: field.required === true && !readOnly,
    read_only: readOnly,
    label: fieldLabel(field),
  };
  if (field.help) info.help_text = field.help;
  if (field.minLength !== undefined) info.min_length = field.minLength;
  if (field.maxLength !== undefined) info.max_length = field.maxLength;
  if (field.min !== undefined) info.min_value = field.min;
  if (field.max !== undefined) info.max_value = field.max;
  if (field.type === 'array') {
    const childType = field.items === 'integer' ? 'integer' : field.items === 'json' ? 'field' : 'string';
    info.child = { type: childType, required: true, read_only: false };
  }
  if (field.type === 'choice' && !readOnly && field.choices) {
    info.choices = field.choices.map((c) => ({ value: c.value, display_name: c.label }));
  }
  if (field.type === 'content_type' && !readOnly && !field.allowedTypes?.length && registry) {
    info.choices = contentTypeChoices(registry);
  }
  return info;
}

/** The POST/PUT field map: every field the serializer has (rendered or written), in serializer order. */
export function actionFields(definition: ModelDefinition, registry?: ModelRegistry): Record<string, FieldMetadata> {
  const out: Record<string, FieldMetadata> = {};
  for (const field of definition.fields) {
    if (field.internal) continue;
    out[field.name] = fieldMetadata(field, registry);
  }
  return out;
}

export interface OptionsBody {
  name: string;
  description: string;
  renders: string[];
  parses: string[];
  actions?: Record<string, Record<string, FieldMetadata>>;
}

/**
 * The metadata of a list (`detail` false) or detail view. `may` says whether the caller
 * may create (POST, list URL only) and change (PUT) objects of the model; without
 * either there is no `actions` at all.
 */
export function optionsBody(
  name: string,
  definition: ModelDefinition | null,
  detail: boolean,
  may: { add: boolean; change: boolean },
  registry?: ModelRegistry,
): OptionsBody {
  const body: OptionsBody = { name, description: '', renders: RENDERS, parses: PARSES };
  if (!definition || definition.readOnly) return body;
  const actions: Record<string, Record<string, FieldMetadata>> = {};
  if (may.add && !detail) actions.POST = actionFields(definition, registry);
  if (may.change) actions.PUT = actionFields(definition, registry);
  if (Object.keys(actions).length) body.actions = actions;
  return body;
}
