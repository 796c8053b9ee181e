/**
 * GraphQL names of the registry's models, as graphene-django derives them in NetBox 3.4
 * from the model class: `ip_address` / `ip_address_list` queries of type `IPAddressType`.
 * The class name is not in the registry; its words are the verbose name's ('IP address'),
 * with the model name's leading letters the verbose name leaves out ('vm' of 'vminterface',
 * 'object' of 'objectpermission') put before them.
 */
import type { ModelDefinition } from '../../models/modelDefinition.js';

interface ModelNames {
  /** The single-object query and the snake_case stem of everything else ('ip_address'). */
  field: string;
  /** The list query ('ip_address_list'). */
  list: string;
  /** The object type ('IPAddressType'). */
  type: string;
  /** The class name NetBox's `class_type` shows ('IPAddress'). */
  className: string;
  /** The name of a reverse relation to this model on another type ('ip_addresses'). */
  plural: string;
}

const cache = new WeakMap<ModelDefinition, ModelNames>();

export function namesOf(definition: ModelDefinition): ModelNames {
  const known = cache.get(definition);
  if (known) return known;
  const words = wordsOf(definition.verboseName, definition.model);
  const pluralWords = wordsOf(definition.verboseNamePlural, null);
  const className = words.map(capitalised).join('');
  const field = words.map((w) => w.toLowerCase()).join('_');
  const prefix = words.length > wordsOf(definition.verboseName, null).length ? [words[0]] : [];
  const plural = [...(prefix.length && pluralWords.length > 1 ? prefix : []), ...pluralWords]
    .map((w) => w.toLowerCase())
    .join('_');
  const names = { field, list: `${field}_list`, type: `${className}Type`, className, plural: graphqlName(plural) };
  cache.set(definition, names);
  return names;
}

/** The verbose name's words, with the model name's missing leading letters as a first word. */
function wordsOf(verbose: string, model: string | null): string[] {
  const words = verbose.split(/[\s_-]+/).filter(Boolean);
  if (model === null) return words;
  const joined = words.join('').toLowerCase();
  if (joined === model || !model.endsWith(joined)) return words;
  const missing = model.slice(0, model.length - joined.length);
  // Short leading letters are an abbreviation (VMInterface), longer ones a word (ObjectPermission).
  return [missing.length <= 2 ? missing.toUpperCase() : missing, ...words];
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** A name GraphQL accepts (letters, digits, underscores; no leading digit or double underscore). */
export function graphqlName(name: string): string {
  const cleaned = name.replace(/[^_a-zA-Z0-9]/g, '_');
  return /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned;
}

export function isGraphqlName(name: string): boolean {
  return /^[_a-zA-Z][_a-zA-Z0-9]*$/.test(name) && !name.startsWith('__');
}
