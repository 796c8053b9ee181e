import type { SecretKeeper } from '../auth/secrets.js';
import { customFieldsOf } from '../models/customFields/customFieldsOf.js';
import type { FieldDefinition, GenericListItem, RenderMemo } from '../models/fieldDefinition.js';
import { imageUrl } from '../models/imageFields.js';
import type { LookupView } from '../models/lookupView.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ModelRegistry } from '../models/registry.js';
import type { StoredObject } from '../models/storedObject.js';
import { lookupView } from '../projections/lookupView.js';
import type { ReadDocument, ReadStore } from '../projections/ReadStore.js';
import { rowBuilder } from './rowBuilder.js';

/**
 * complete: every field (the detail and list views); brief: the model's brief fields
 * (?brief=1); nested: the brief form as embedded in another object (no annotated counts).
 */
export type Representation = 'complete' | 'brief' | 'nested';

export interface RenderOptions {
  baseUrl: string;
  /** Leave out annotated counts (NetBox does not compute them for a create response). */
  omitAnnotated?: boolean;
  /** Secrets to show once, by object id (a new token's key). */
  revealed?: Map<number, Record<string, unknown>>;
  /** Only these top-level fields (?fields=a,b). */
  only?: Set<string>;
  /** Leave out these top-level fields (?exclude=config_context). */
  exclude?: Set<string>;
  /** Set by the top-level render for everything below it. */
  memo?: RenderMemo;
}

const MAX_NESTING = 4;

/**
 * Renders read documents in NetBox's shapes, for every model, from its definition.
 * Related objects are fetched in one batch per relation and page, never one by one.
 */
export class Serializer {
  private readonly view: LookupView;

  constructor(
    private readonly registry: ModelRegistry,
    private readonly store: ReadStore,
    private readonly secrets: SecretKeeper,
  ) {
    this.view = lookupView(store);
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
          return this.attributes(
            field.target!,
            field.briefAttribute,
            docs.map((d) => d[field.name]),
          );
        return this.related(
          field.target!,
          docs.map((d) => toIds(d[field.name])),
          options,
          depth,
          false,
        );
      case 'm2m':
        if (field.representation === 'slug')
          return this.slugs(
            field.target!,
            docs.map((d) => toIds(d[field.name])),
          );
        return this.related(
          field.target!,
          docs.map((d) => toIds(d[field.name])),
          options,
          depth,
          true,
        );
      case 'tags':
        return this.related(
          field.target!,
          docs.map((d) => toIds(d[field.name])),
          options,
          depth,
          true,
        );
      case 'generic_fk':
        return this.generic(field, docs, options, depth);
      case 'generic_list':
        return this.genericList(field, docs, options, depth);
      case 'count':
        return this.counts(field, docs);
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
          return this.related(
            field.target,
            docs.map((d) => toIds(first(d))),
            options,
            depth,
            false,
          );
        }
        if (field.heldBy) return this.heldBy(field.heldBy, docs, options, depth);
        const values = await this.computed(definition, field, docs, options);
        return field.references ? this.references(field, values, options, depth) : values;
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
        const many = custom.type === 'multiobject';
        const values = await this.related(
          String(custom.object_type),
          rows.map((r) => toIds(r[name])),
          options,
          depth,
          many,
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

  private async computed(
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

  /**
   * Objects named by reference (of any models), each in its nested form or showing
   * `fields`, by `<type>:<id>`; each model's objects fetched once. Kept in the response's
   * render memo: an object referenced by several columns (a port's link peer is also its
   * connected endpoint) is rendered once. Objects that are gone, or past the nesting depth,
   * are absent.
   */
  async referenced(
    refs: GenericListItem[],
    options: RenderOptions,
    depth = 0,
    fields?: string[],
  ): Promise<Map<string, Record<string, unknown>>> {
    const memo = options.memo ?? new Map<string, unknown>();
    const inner = { ...options, memo };
    const form = fields ? fields.join(',') : 'nested';
    const memoKey = (type: string, id: number) => `reference:${form}:${depth}:${type}:${id}`;
    const idsByType = new Map<string, Set<number>>();
    for (const ref of refs) {
      const ids = idsByType.get(ref.object_type) ?? new Set<number>();
      ids.add(ref.object_id);
      idsByType.set(ref.object_type, ids);
    }
    const found = new Map<string, Record<string, unknown>>();
    for (const [type, ids] of idsByType) {
      const definition = this.registry.tryGet(type);
      if (!definition || depth >= MAX_NESTING) continue;
      const missing = [...ids].filter((id) => !memo.has(memoKey(type, id)));
      if (missing.length) {
        // Promises, so that columns rendered concurrently share the one batch.
        const batch = (async () => {
          const docs = await this.store.getMany(type, missing);
          const rendered = fields
            ? await this.render({ ...definition, brief: fields }, docs, 'brief', inner, depth + 1)
            : await this.render(definition, docs, 'nested', inner, depth + 1);
          return new Map(docs.map((d, i) => [d.id, rendered[i]]));
        })();
        for (const id of missing)
          memo.set(
            memoKey(type, id),
            batch.then((forms) => forms.get(id)),
          );
      }
      for (const id of ids) {
        const form = (await memo.get(memoKey(type, id))) as Record<string, unknown> | undefined;
        if (form) found.set(`${type}:${id}`, form);
      }
    }
    return found;
  }

  /** Computed references in their nested forms (or the field's `referenceFields`). */
  private async references(
    field: FieldDefinition,
    values: unknown[],
    options: RenderOptions,
    depth: number,
  ): Promise<unknown[]> {
    const lists = values.map((v) => (Array.isArray(v) ? (v as GenericListItem[]) : v ? [v as GenericListItem] : []));
    const nested = await this.referenced(lists.flat(), options, depth, field.referenceFields);
    const found = lists.map((items) =>
      items.flatMap((item) => nested.get(`${item.object_type}:${item.object_id}`) ?? []),
    );
    // A list that is null (no path at all) stays null rather than becoming empty.
    return field.references === 'many'
      ? found.map((items, i) => (values[i] === null ? null : items))
      : found.map((items) => items[0] ?? null);
  }

  /** Nested forms of related objects, fetched once for the whole page. */
  private async related(
    target: string,
    idsPerDoc: number[][],
    options: RenderOptions,
    depth: number,
    many: boolean,
  ): Promise<unknown[]> {
    const definition = this.registry.tryGet(target);
    const all = [...new Set(idsPerDoc.flat())];
    const byId = new Map<number, Record<string, unknown>>();
    if (definition && all.length > 0 && depth < MAX_NESTING) {
      const docs = await this.store.getMany(target, all);
      const rendered = await this.render(definition, docs, 'nested', options, depth + 1);
      docs.forEach((d, i) => byId.set(d.id, rendered[i]));
    }
    return idsPerDoc.map((ids) => {
      const found = ids.map((id) => byId.get(id)).filter((x): x is Record<string, unknown> => x !== undefined);
      return many ? found : (found[0] ?? null);
    });
  }

  /** One attribute of each related object, fetched once for the whole page (null where there is none). */
  private async attributes(target: string, attribute: string, ids: unknown[]): Promise<unknown[]> {
    const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
    const byId = new Map(
      (wanted.length ? await this.store.getMany(target, wanted) : []).map((d) => [d.id, d[attribute] ?? null]),
    );
    return ids.map((id) => (typeof id === 'number' ? (byId.get(id) ?? null) : null));
  }

  /** Each document's holder's parent in its nested form, with the holder nested under `as`; holders fetched once for the page. */
  private async heldBy(
    spec: NonNullable<FieldDefinition['heldBy']>,
    docs: ReadDocument[],
    options: RenderOptions,
    depth: number,
  ): Promise<unknown[]> {
    const holderDefinition = this.registry.tryGet(spec.model);
    const parentTarget = holderDefinition?.fields.find((f) => f.name === spec.parent)?.target;
    if (!holderDefinition || !parentTarget || docs.length === 0 || depth >= MAX_NESTING) return docs.map(() => null);
    const holders = await this.store.find(
      spec.model,
      { [spec.via]: { $in: docs.map((d) => d.id) } },
      { sort: { id: 1 } },
    );
    const parents = await this.related(
      parentTarget,
      holders.map((h) => toIds(h[spec.parent])),
      options,
      depth,
      false,
    );
    const nestedHolders = await this.render(holderDefinition, holders, 'nested', options, depth + 1);
    return docs.map((d) => {
      const i = holders.findIndex((h) => h[spec.via] === d.id);
      const parent = i < 0 ? null : parents[i];
      return parent ? { ...(parent as Record<string, unknown>), [spec.as]: nestedHolders[i] } : null;
    });
  }

  /** Related objects by slug (NetBox's slug related field), ordered by name, fetched once for the whole page. */
  private async slugs(target: string, idsPerDoc: number[][]): Promise<string[][]> {
    const all = [...new Set(idsPerDoc.flat())];
    const byId = new Map((all.length ? await this.store.getMany(target, all) : []).map((d) => [d.id, d]));
    const byName = (a: ReadDocument, b: ReadDocument) =>
      String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : 0;
    return idsPerDoc.map((ids) =>
      ids
        .map((id) => byId.get(id))
        .filter((d): d is ReadDocument => d !== undefined)
        .sort(byName)
        .map((d) => String(d.slug)),
    );
  }

  private async generic(
    field: FieldDefinition,
    docs: ReadDocument[],
    options: RenderOptions,
    depth: number,
  ): Promise<unknown[]> {
    const out: unknown[] = docs.map(() => null);
    const byType = new Map<string, number[]>();
    docs.forEach((d, i) => {
      const type = d[field.typeField!];
      if (typeof type === 'string' && typeof d[field.idField!] === 'number') {
        const rows = byType.get(type) ?? [];
        rows.push(i);
        byType.set(type, rows);
      }
    });
    for (const [type, rows] of byType) {
      const values = await this.related(
        type,
        rows.map((i) => [docs[i][field.idField!] as number]),
        options,
        depth,
        false,
      );
      rows.forEach((row, j) => (out[row] = values[j]));
    }
    return out;
  }

  /** Each item as {object_type, object_id, object}: the objects fetched once per model for the whole page. */
  private async genericList(
    field: FieldDefinition,
    docs: ReadDocument[],
    options: RenderOptions,
    depth: number,
  ): Promise<unknown[]> {
    const lists = docs.map((d) => (Array.isArray(d[field.name]) ? (d[field.name] as GenericListItem[]) : []));
    const nested = await this.referenced(lists.flat(), options, depth);
    return lists.map((items) =>
      items.map((item) => ({
        object_type: item.object_type,
        object_id: item.object_id,
        object: nested.get(`${item.object_type}:${item.object_id}`) ?? null,
      })),
    );
  }

  private async counts(field: FieldDefinition, docs: ReadDocument[]): Promise<unknown[]> {
    const spec = field.count!;
    if (!this.registry.tryGet(spec.model)) return docs.map(() => 0);
    if (spec.where) {
      // One query for the page: the matching objects are few (a page's addresses), the count queries would be one per row.
      const matching = await this.store.find(spec.model, { ...spec.where, [spec.via]: { $in: docs.map((d) => d.id) } });
      const counted = new Map<unknown, number>();
      for (const m of matching) counted.set(m[spec.via], (counted.get(m[spec.via]) ?? 0) + 1);
      return docs.map((d) => counted.get(d.id) ?? 0);
    }
    const counts = await this.store.countBy(
      spec.model,
      spec.via,
      docs.map((d) => d.id),
    );
    return docs.map((d) => counts.get(d.id) ?? 0);
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

function toIds(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (Array.isArray(value)) return value.filter((v): v is number => typeof v === 'number');
  return [];
}

function renderChoice(field: FieldDefinition, value: unknown, bare: boolean): unknown {
  if (value === undefined || value === null) return null;
  if (field.choiceRender === 'plain' || bare) return value;
  if (value === '' && field.emptyAsNull !== false) return null;
  const choice = field.choices?.find((c) => c.value === value);
  return { value, label: choice?.label ?? String(value) };
}
