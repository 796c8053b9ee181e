/**
 * The `filters` block of a generated model: what its reference entry lists beyond what the
 * fields already bring (src/api/query/filterSet.ts), written with the shared declarations
 * of src/models/filterSpecs.ts where the reference's names and relations are theirs:
 *
 *   contact, contact_role, contact_group                    ...contactFilters
 *   tenant_group_id, tenant_group (model has a tenant)      ...tenancyFilters
 *   region_id, region, site_group_id, site_group
 *     (through the site the model reaches)                  ...siteScopeFilters(['site'])
 *   <x>_id, <x>, both including descendants                 ...treeFilters('<x>_id', '<x>', target, path)
 *   <x>_id, <x> through other models                        ...pairFilters('<x>_id', '<x>', target, path)
 *
 * A relation comes from the reference's `filter_info` (target, attribute, path) when it has
 * one, else from the filter's name and kind (`tree_id`, `slug` ...) and the model's fields.
 * The result is checked the way test/query/referenceCoverage.spec.ts checks registered
 * models; what it still does not answer is returned for a TODO in the file.
 */
import { filterSetOf } from '../src/api/query/filterSet.js';
import type { FieldDefinition } from '../src/models/fieldDefinition.js';
import {
  contactFilters,
  pairFilters,
  siteScopeFilters,
  tenancyFilters,
  treeFilters,
  vrfByRd,
} from '../src/models/filterSpecs.js';
import type { FilterSpec, RelatedFilterSpec } from '../src/models/filterTypes.js';
import type { ModelDefinition } from '../src/models/modelDefinition.js';
import { type ModelRegistry, registry } from '../src/models/registry.js';
import { compareDefinition, type FilterReference } from './check-filters.js';
import type { Json, RefModel } from './netboxReference.js';
import { literal, quote } from './typescriptSource.js';

type Filters = Record<string, FilterSpec>;

/** One reference filter as a relation: the target's objects named by `by`, reached by `path`. */
interface Relation {
  target: string;
  by: string;
  path: string[];
  descendants: boolean;
}

export interface FilterDeclarations {
  /** Entries of the `filters` object, as source (spreads and declarations). */
  entries: string[];
  /** Names imported from '../filterSpecs.js'. */
  imports: string[];
  /** Reference filters the fields and these entries still do not answer, or answer differently. */
  unanswered: string[];
}

const BY_KIND: Record<string, string> = {
  id: 'id',
  tree_id: 'id',
  slug: 'slug',
  tree_slug: 'slug',
  name: 'name',
  rd: 'rd',
  identifier: 'identifier',
  address: 'address',
};

export function referenceFilters(
  ref: Map<string, RefModel>,
  model: RefModel,
  fields: Record<string, Json>[],
  search: string[],
): FilterDeclarations {
  const names = Object.keys(model.filters ?? {});
  const has = (...wanted: string[]) => wanted.every((n) => names.includes(n));
  const info = (name: string) =>
    (model as { filter_info?: Record<string, Record<string, Json>> | null }).filter_info?.[name];
  const kind = (name: string) => (model as { filter_kinds?: Record<string, string> | null }).filter_kinds?.[name];

  /** The targets of a path of relation fields from this model, or null if a step is not one. */
  const walk = (path: string[]): string[] | null => {
    const targets: string[] = [];
    let at: RefModel | undefined = model;
    for (const step of path) {
      const field = at?.fields.find((f) => f.name === step && (f.type === 'fk' || f.type === 'm2m'));
      if (!field || typeof field.target !== 'string') return null;
      targets.push(field.target);
      at = ref.get(field.target);
    }
    return targets;
  };

  /**
   * A relation through another model, named `<field>_<its field>` (tenant_group: the
   * tenant's group; cluster_type: the cluster's type), and a site's region.
   */
  const throughName = (base: string): string[] | null => {
    if (base === 'region') return ['site', 'region'];
    for (let i = base.indexOf('_'); i > 0; i = base.indexOf('_', i + 1)) {
      const path = [base.slice(0, i), base.slice(i + 1)];
      if (walk(path)) return path;
    }
    return null;
  };

  const relationOf = (name: string): Relation | null => {
    const described = info(name);
    if (described) {
      if (typeof described.matches !== 'string' || typeof described.path !== 'string') return null;
      const by = typeof described.by === 'string' ? described.by : 'id';
      let path = described.path.split('__');
      if (path.length > 1 && path[path.length - 1] === by) path = path.slice(0, -1);
      path[path.length - 1] = path[path.length - 1]!.replace(/_id$/, '');
      const targets = walk(path);
      if (targets?.at(-1) !== described.matches) return null;
      return { target: described.matches, by, path, descendants: described.includes_descendants === true };
    }
    const by = BY_KIND[kind(name) ?? ''];
    if (!by) return null;
    const base = by === 'id' && name.endsWith('_id') ? name.slice(0, -3) : name;
    const path = [base, `${base}s`, `${base}es`].map((f) => [f]).find((p) => walk(p)) ?? throughName(base);
    const targets = path && walk(path);
    if (!targets) return null;
    return { target: targets.at(-1)!, by, path, descendants: kind(name)?.startsWith('tree_') === true };
  };

  /** Entries with the reference position of their first filter: they are listed in NetBox's order. */
  const entries: Array<{ at: number; code: string }> = [];
  const at = (declared: string[]) => Math.min(...declared.map((n) => names.indexOf(n)).filter((i) => i >= 0));
  const imports = new Set<string>();
  const filters: Filters = {};
  const taken = new Set<string>();
  const spread = (code: string, importName: string, declared: Filters) => {
    entries.push({ at: at(Object.keys(declared)), code: `...${code}` });
    imports.add(importName);
    Object.assign(filters, declared);
    for (const n of Object.keys(declared)) taken.add(n);
  };
  const relations = new Map(names.map((n) => [n, relationOf(n)] as const));
  const same = (name: string, expected: Relation) => {
    const r = relations.get(name);
    return (
      !!r &&
      r.target === expected.target &&
      r.by === expected.by &&
      r.descendants === expected.descendants &&
      r.path.join() === expected.path.join()
    );
  };

  if (has('contact', 'contact_role', 'contact_group')) spread('contactFilters', 'contactFilters', contactFilters);
  if (has('tenant_group_id', 'tenant_group') && walk(['tenant'])?.[0] === 'tenancy.tenant')
    spread('tenancyFilters', 'tenancyFilters', tenancyFilters);
  const toSite = relations.get('region_id')?.path.slice(0, -1);
  if (toSite?.length && has('region', 'site_group_id', 'site_group') && walk(toSite)?.at(-1) === 'dcim.site') {
    const tree = (target: string, last: string, by: string): Relation => ({
      target,
      by,
      path: [...toSite, last],
      descendants: true,
    });
    if (
      same('region_id', tree('dcim.region', 'region', 'id')) &&
      same('region', tree('dcim.region', 'region', 'slug')) &&
      same('site_group_id', tree('dcim.sitegroup', 'group', 'id')) &&
      same('site_group', tree('dcim.sitegroup', 'group', 'slug'))
    ) {
      spread(`siteScopeFilters(${literal(toSite, '')})`, 'siteScopeFilters', siteScopeFilters(toSite));
    }
  }

  const vrf = relations.get('vrf');
  if (vrf && vrf.target === 'ipam.vrf' && vrf.by === 'rd' && vrf.path.join() === 'vrf')
    spread('vrfByRd', 'vrfByRd', vrfByRd);

  // The rest: relations the fields do not bring as NetBox has them.
  const models = withModel(pseudoDefinition(model, fields, search, {}));
  const derived = filterSetOf(models, models.tryGet(model.model)!);
  const fromFields = (name: string, r: Relation) => {
    const f = derived.get(name);
    return (
      f?.kind === 'related' &&
      f.target === r.target &&
      f.by === r.by &&
      !!f.includeDescendants === r.descendants &&
      f.path.join() === r.path.join()
    );
  };
  // `<x>_id` first, so that it is declared with its partner `<x>` as one pair.
  for (const name of [...names.filter((n) => n.endsWith('_id')), ...names.filter((n) => !n.endsWith('_id'))]) {
    const r = relations.get(name);
    if (taken.has(name) || !r || fromFields(name, r)) continue;
    const partnerName = name.endsWith('_id') ? name.slice(0, -3) : null;
    const partner = partnerName ? relations.get(partnerName) : null;
    const pair =
      partnerName &&
      partner &&
      !taken.has(partnerName) &&
      r.by === 'id' &&
      partner.by !== 'id' &&
      partner.target === r.target &&
      partner.path.join() === r.path.join() &&
      partner.descendants === r.descendants;
    const args = `${quote(name)}, ${quote(partnerName ?? '')}, ${quote(r.target)}, ${literal(r.path, '')}`;
    if (pair && r.descendants && partner.by === 'slug') {
      spread(`treeFilters(${args})`, 'treeFilters', treeFilters(name, partnerName!, r.target, r.path));
    } else if (pair && !r.descendants) {
      const by = partner.by === 'slug' ? '' : `, ${quote(partner.by)}`;
      spread(`pairFilters(${args}${by})`, 'pairFilters', pairFilters(name, partnerName!, r.target, r.path, partner.by));
    } else {
      const spec: RelatedFilterSpec = {
        kind: 'related',
        target: r.target,
        ...(r.by !== 'id' ? { by: r.by } : {}),
        path: r.path,
      };
      if (r.descendants) spec.includeDescendants = true;
      entries.push({
        at: at([name]),
        code: `${/^\w+$/.test(name) ? name : quote(name)}: ${literal(spec as unknown as Json, '    ')}`,
      });
      filters[name] = spec;
      taken.add(name);
    }
  }

  // A relation NetBox filters under other names (role_id for device_role, asn_id for asns)
  // does not keep the names its field brings. (Other filters NetBox lacks are left: the
  // reference does not list every plain field filter of every model.)
  const renamed = new Set([...relations.values()].map((r) => r?.path[0]));
  const extra =
    compareDefinition(pseudoDefinition(model, fields, search, filters), model as unknown as FilterReference, models)
      ?.extra ?? [];
  for (const name of extra) {
    const field = fields.find(
      (f) => (f.type === 'fk' || f.type === 'm2m') && (f.name === name || `${f.name as string}_id` === name),
    );
    if (!field || !renamed.has(field.name as string) || name in filters) continue;
    entries.push({ at: names.length, code: `${name}: false` });
    filters[name] = false;
  }

  const check = compareDefinition(
    pseudoDefinition(model, fields, search, filters),
    model as unknown as FilterReference,
    models,
  );
  const unanswered = [
    ...(check?.missing ?? []),
    ...(check?.differences ?? []).filter((d) => !d.startsWith('lookups ')).map((d) => d.split(':')[0]!),
  ];
  entries.sort((a, b) => a.at - b.at);
  return { entries: entries.map((e) => e.code), imports: [...imports].sort(), unanswered: [...new Set(unanswered)] };
}

/** The registry as it will be once the generated model is registered (its relations to itself, e.g. `parent`). */
function withModel(definition: ModelDefinition): ModelRegistry {
  const models = Object.create(registry) as ModelRegistry;
  models.tryGet = (key: string) => (key === definition.key ? definition : registry.tryGet(key));
  return models;
}

/** The generated model as filterSet.ts sees it: its fields, its search and these declarations. */
function pseudoDefinition(
  model: RefModel,
  fields: Record<string, Json>[],
  search: string[],
  filters: Filters,
): ModelDefinition {
  const [app, name] = model.model.split('.');
  return {
    key: model.model,
    app: app!,
    model: name!,
    path: model.path,
    verboseName: model.verbose_name,
    verboseNamePlural: model.verbose_name_plural,
    fields: fields as unknown as FieldDefinition[],
    brief: [],
    ordering: [],
    search,
    filters,
  } as unknown as ModelDefinition;
}
