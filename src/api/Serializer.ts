import type { SecretKeeper } from '../auth/secrets.js';
import { customFieldsOf } from '../models/customFields/customFieldsOf.js';
import type { FieldDefinition, GenericListItem } from '../models/fieldDefinition.js';
import { imageUrl } from '../models/imageFields.js';
import type { LookupView } from '../models/lookupView.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ModelRegistry } from '../models/registry.js';
import type { StoredObject } from '../models/storedObject.js';
import { lookupView } from '../projections/lookupView.js';
import type { ReadDocument, ReadStore } from '../projections/ReadStore.js';
import { RelatedColumns, toIds } from './relatedColumns.js';
import type { RenderOptions, Representation } from './renderOptions.js';
import { rowBuilder } from './rowBuilder.js';

/**
 * Renders read documents in NetBox's shapes, for every model, from its definition.
 * Related objects are fetched in one batch per relation and page, never one by one.
 */
export class Serializer {
  private readonly view: LookupView;
  private readonly relations: RelatedColumns;

  constructor(
    private readonly registry: ModelRegistry,
    private readonly store: ReadStore,
    private readonly secrets: SecretKeeper,
  ) {
    this.view = lookupView(store);
    this.relations = new RelatedColumns(registry, store, (definition, docs, representation, options, depth) =>
      this.render(definition, docs, representation, options, depth),
    );
  }

  /** The same serializer over other read models (e.g. a past state of the registry). */
  using(store: ReadStore): Serializer {
    return new Serializer(this.registry, store, this.secrets);
  }

  url(definition: ModelDefinition, baseUrl: string, id?: number): string {
    return `${baseUrl}/api/${definition.app}/${definition.path}/${id === undefined ? '' : `${id}/`}`;
  }

  async render(
    definition: ModelDefinition,
    docs: ReadDocument[],
    representation: Representation,
    options: RenderOptions,
    depth = 0,
  ): Promise<Record<string, unknown>[]> {
    if (!options.memo) options = { ...options, memo: new Map() };
    const names = representation === 'complete' ? null : new Set(definition.brief);
    const declared = names ? briefOrder(definition) : definition.fields;
    const fields = declared.filter((f) => {
      if (f.internal || f.writeOnly) return false;
      if (names && !names.has(f.name)) return false;
      if (f.annotated && (representation === 'nested' || options.omitAnnotated)) return false;
      if (depth === 0 && options.only && !options.only.has(f.name)) return false;
      if (depth === 0 && options.exclude?.has(f.name)) return false;
      return true;
    });
    // Columns of references last: the objects they nest are often on the page already (a
    // port's peer), and by then the page's own computed values are in the render memo.
    const columns: unknown[][] = new Array(fields.length);
    for (const late of [false, true]) {
      const phase = fields.map((f, i) => [f, i] as const).filter(([f]) => Boolean(f.references) === late);
      const values = await Promise.all(
        phase.map(([f]) => this.column(definition, f, docs, representation, options, depth)),
      );
      phase.forEach(([, i], j) => (columns[i] = values[j]));
    }
    const keys = fields.map((f) => (names && f.briefName ? f.briefName : f.name));
    if (!fields.some(mayOmit)) {
      const build = rowBuilder(keys);
      return docs.map((_doc, row) => build(columns, row));
    }
    return docs.map((_doc, row) => {
      const out: Record<string, unknown> = {};
      fields.forEach((_field, i) => {
        const value = columns[i][row];
        if (value !== OMIT) out[keys[i]] = value;
      });
      return out;
    });
  }

  /** One field's rendered values for every document of the page. */
  private async column(
    definition: ModelDefinition,
    field: FieldDefinition,
    docs: ReadDocument[],
    representation: Representation,
    options: RenderOptions,
    depth: number,
  ): Promise<unknown[]> {
    const bare = representation !== 'complete';
    switch (field.type) {
      case 'id':
        return docs.map((d) => d.id);
      case 'url':
        return docs.map((d) => this.url(definition, options.baseUrl, d.id));
      case 'display':
        if (definition.displayReads?.length && definition.hooks?.display) {
          const display = definition.hooks.display;
          return Promise.all(docs.map(async (d) => String(await display(d as StoredObject, this.view))));
        }
        return docs.map((d) => d.display ?? String(d.id));
      case 'date':
        return docs.map((d) => (typeof d[field.name] === 'string' ? (d[field.name] as string).slice(0, 10) : null));
      case 'choice':
        return docs.map((d) => renderChoice(field, d[field.name], bare));
      case 'fk':
        if (field.representation === 'id') return docs.map((d) => d[field.name] ?? null);
        if (bare && field.briefAttribute === 'id') return docs.map((d) => d[field.name] ?? null);
        if (bare && field.briefAttribute)
          return this.relations.attributes(
            field.target!,
            field.briefAttribute,
            docs.map((d) => d[field.name]),
          );
        return this.relations.related(
          field.target!,
          docs.map((d) => toIds(d[field.name])),
          options,
          depth,
          'one',
        );
      case 'm2m':
        if (field.representation === 'slug')
          return this.relations.slugs(
            field.target!,
            docs.map((d) => toIds(d[field.name])),
          );
        return this.relations.related(
          field.target!,
          docs.map((d) => toIds(d[field.name])),
          options,
          depth,
          'many',
        );
      case 'tags':
        return this.relations.related(
          field.target!,
          docs.map((d) => toIds(d[field.name])),
          options,
          depth,
          'many',
        );
      case 'generic_fk':
        return this.relations.generic(field, docs, options, depth);
      case 'generic_list':
        return this.relations.genericList(field, docs, options, depth);
      case 'count':
        return this.relations.counts(field, docs);
      case 'reverse': {
        const target = this.registry.tryGet(field.target!);
        if (!target) return docs.map(() => []);
        const children = await this.store.find(
          target.key,
          { [field.via!]: { $in: docs.map((d) => d.id) } },
          { sort: { id: 1 } },
        );
        const rendered = await this.render(target, children, 'nested', options, depth + 1);
        const perDoc = docs.map((d) => rendered.filter((_, i) => children[i][field.via!] === d.id));
        // A one-to-one reverse relation (a bay's installed module) is one object or null.
        return field.oneToOne ? perDoc.map((list) => list[0] ?? null) : perDoc;
      }
      case 'computed': {
        if (field.coalesce && field.target) {
          const first = (d: ReadDocument) => field.coalesce!.map((name) => d[name]).find((v) => typeof v === 'number');
          return this.relations.related(
            field.target,
            docs.map((d) => toIds(first(d))),
            options,
            depth,
            'one',
          );
        }
        if (field.heldBy) return this.relations.heldBy(field.heldBy, docs, options, depth);
        const values = await this.computed(definition, field, docs, options);
        return field.references ? this.relations.references(field, values, options, depth) : values;
      }
      case 'custom_fields':
        return this.customFields(definition, field, docs, options, depth);
      default:
        if (field.image) return docs.map((d) => imageUrl(field, d[field.name], options.baseUrl));
        if (field.secret === 'token_key') return docs.map((d) => this.tokenKey(d, options));
        if (field.secret === 'sealed') return docs.map((d) => this.sealed(field.name, d));
        return docs.map((d) => (d[field.name] === undefined ? (field.default ?? null) : d[field.name]));
    }
  }

  /**
   * Objects named by reference (of any models), each in its nested form or showing
   * `fields`, by `<type>:<id>`; each model's objects fetched once. Kept in the response's
   * render memo: an object referenced by several columns (a port's link peer is also its
   * connected endpoint) is rendered once. Objects that are gone, or past the nesting depth,
   * are absent.
   */
  referenced(
    refs: GenericListItem[],
    options: RenderOptions,
    depth = 0,
    fields?: string[],
  ): Promise<Map<string, Record<string, unknown>>> {
    return this.relations.referenced(refs, options, depth, fields);
  }

  /** Every custom field defined for the model, null when unset; object fields as nested objects. */
  private async customFields(
    definition: ModelDefinition,
    field: FieldDefinition,
    docs: ReadDocument[],
    options: RenderOptions,
    depth: number,
  ): Promise<unknown[]> {
    const defined = await customFieldsOf(this.view, definition.key);
    const rows = docs.map((d) => (d[field.name] ?? {}) as Record<string, unknown>);
    const out: Record<string, unknown>[] = docs.map(() => ({}));
    for (const custom of defined) {
      const name = String(custom.name);
      if (custom.type === 'object' || custom.type === 'multiobject') {
        const cardinality = custom.type === 'multiobject' ? 'many' : 'one';
        const values = await this.relations.related(
          String(custom.object_type),
          rows.map((r) => toIds(r[name])),
          options,
          depth,
          cardinality,
        );
        rows.forEach((r, i) => (out[i][name] = r[name] === undefined || r[name] === null ? null : values[i]));
      } else {
        rows.forEach((r, i) => (out[i][name] = r[name] ?? null));
      }
    }
    return out;
  }

  /** A sealed secret in clear for the webhook's readers (NetBox shows it); '' when none is set. */
  private sealed(name: string, doc: ReadDocument): string {
    const sealed = doc[`${name}_sealed`];
    return typeof sealed === 'string' ? (this.secrets.unsealSecret(sealed) ?? '') : '';
  }

  private tokenKey(doc: ReadDocument, options: RenderOptions): unknown {
    const revealed = options.revealed?.get(doc.id)?.key;
    if (revealed !== undefined) return revealed;
    if (this.secrets.allowTokenRetrieval && typeof doc.key_cipher === 'string')
      return this.secrets.decryptTokenKey(doc.key_cipher);
    return OMIT;
  }

  /** A computed field's values before rendering (a reference field's `{object_type, object_id}` items), for a page at once. */
  async computed(
    definition: ModelDefinition,
    field: FieldDefinition,
    docs: ReadDocument[],
    options: RenderOptions,
  ): Promise<unknown[]> {
    if (field.computeMany)
      return field.computeMany(docs as StoredObject[], this.view, definition, options.memo ?? new Map(), this.registry);
    const compute = definition.hooks?.compute?.[field.name];
    if (!compute) return docs.map(() => structuredClone(field.value ?? null));
    return Promise.all(docs.map((d) => compute(d as StoredObject, this.view, options.baseUrl)));
  }
}

const briefOrders = new WeakMap<ModelDefinition, FieldDefinition[]>();

/** The model's fields in the order its brief form lists them (NetBox's nested serializers order them so), the others after; worked out once per definition. */
function briefOrder(definition: ModelDefinition): FieldDefinition[] {
  const known = briefOrders.get(definition);
  if (known) return known;
  const rank = (f: FieldDefinition) => {
    const i = definition.brief.indexOf(f.name);
    return i < 0 ? definition.brief.length : i;
  };
  const ordered = [...definition.fields].sort((a, b) => rank(a) - rank(b));
  briefOrders.set(definition, ordered);
  return ordered;
}

/** Marks a key that must not appear at all (not even as null). */
const OMIT = Symbol('omit');

/** Whether a field's column may hold OMIT (a token's key, shown only when retrievable). */
const mayOmit = (field: FieldDefinition) => field.secret === 'token_key';

function renderChoice(field: FieldDefinition, value: unknown, bare: boolean): unknown {
  if (value === undefined || value === null) return null;
  if (field.choiceRender === 'plain' || bare) return value;
  if (value === '' && field.emptyAsNull !== false) return null;
  const choice = field.choices?.find((c) => c.value === value);
  return { value, label: choice?.label ?? String(value) };
}
