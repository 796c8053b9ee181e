import { ConflictError, NotFoundError, ValidationError } from '../errors/requestErrors.js';
import { TurnBudget } from '../eventLoopTurns.js';
import type { GenericListItem } from '../models/fieldDefinition.js';
import type { LookupView } from '../models/lookupView.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ModelReference, ModelRegistry } from '../models/registry.js';
import type { StoredObject } from '../models/storedObject.js';
import type { CommandEnvironment } from './decideObject.js';
import { checkPreconditions } from './preconditions.js';
import { storedForm } from './storedForm.js';
import type { WriteTransaction } from './WriteCoordinator.js';
import type { ExistingObjectsWrite, WriteShape } from './writeShape.js';

/** An object the delete touches, in its stored form. */
interface Affected {
  definition: ModelDefinition;
  obj: StoredObject;
  display: string;
}

/** What deleting the requested objects does to everything that refers to them. */
interface DeletePlan {
  /** Deleted, by '<model>:<id>'; `order` holds them requested first, then as discovered. */
  doomed: Map<string, Affected>;
  order: Affected[];
  /** Objects whose protecting references forbid the delete (unless they are doomed themselves). */
  blockers: Map<string, Affected>;
  /** Objects that lose a reference (nulled, or removed from a list): their new stored form, and `before`. */
  cleared: Map<string, Affected & { before: StoredObject }>;
}

/**
 * DELETE of one object or several. Protecting relations refuse the whole request
 * (409, naming the dependants); cascading ones delete their dependants, each with
 * its own event; SET_NULL and list references are cleared by update events,
 * so replaying the log rebuilds exactly the same read models. Preconditions name
 * versions of the objects asked for, not of what cascades from them.
 */
export async function deleteObjects(
  env: CommandEnvironment,
  tx: WriteTransaction,
  definition: ModelDefinition,
  ids: number[],
  { bulk, preconditions = [] }: ExistingObjectsWrite,
): Promise<void> {
  await checkPreconditions(tx.view, definition, preconditions, { bulk });
  const plan = await collectRequested(tx.view, definition, ids, { bulk });
  await classifyDependants(env.registry, tx.view, plan);
  await collectRuleBlockers(env.registry, tx.view, plan);
  refuseIfProtected(plan);
  await recordClearing(tx, plan);
  await recordDeletions(tx, plan);
}

/** The objects asked for; an unknown id is a 404 for one object, a failed item of a bulk request. */
async function collectRequested(
  view: LookupView,
  definition: ModelDefinition,
  ids: number[],
  { bulk }: WriteShape,
): Promise<DeletePlan> {
  const plan: DeletePlan = { doomed: new Map(), order: [], blockers: new Map(), cleared: new Map() };
  const missing: Array<Record<string, string[]>> = [];
  let anyMissing = false;
  for (const id of ids) {
    const doc = await view.get(definition.key, id);
    if (!doc) {
      if (!bulk) throw new NotFoundError();
      anyMissing = true;
      missing.push({ id: [`Object with id ${id} does not exist.`] });
      continue;
    }
    missing.push({});
    doom(plan, `${definition.key}:${id}`, { definition, obj: storedForm(doc), display: String(doc.display ?? id) });
  }
  if (anyMissing) throw new ValidationError(missing);
  return plan;
}

function doom(plan: DeletePlan, key: string, entry: Affected): void {
  if (plan.doomed.has(key)) return;
  plan.doomed.set(key, entry);
  plan.order.push(entry);
}

/**
 * Walks every reference to every doomed object, breadth first (cascades add to `order`
 * while it is walked): cascading and generic foreign keys doom their holders,
 * protecting ones block, the others are cleared.
 */
async function classifyDependants(registry: ModelRegistry, view: LookupView, plan: DeletePlan): Promise<void> {
  // A bulk delete's cascade can walk many thousands of objects: reads get turns meanwhile.
  const budget = new TurnBudget();
  for (let i = 0; i < plan.order.length; i++) {
    if (budget.due()) await budget.pause();
    const parent = plan.order[i];
    for (const reference of registry.referencesTo(parent.definition.key)) {
      for (const dependant of await view.find(reference.model.key, referenceQuery(reference, parent))) {
        const key = `${reference.model.key}:${dependant.id}`;
        if (plan.doomed.has(key)) continue;
        const entry = {
          definition: reference.model,
          obj: storedForm(dependant),
          display: String(dependant.display ?? dependant.id),
        };
        const { field } = reference;
        if (field.type === 'generic_fk' || (field.type === 'fk' && field.onDelete === 'CASCADE'))
          doom(plan, key, entry);
        else if (field.type === 'fk' && field.onDelete === 'PROTECT') plan.blockers.set(key, entry);
        else clear(plan, key, entry, reference, parent);
      }
    }
  }
}

/** The query for objects whose `reference` points at `parent`. */
function referenceQuery({ field }: ModelReference, parent: Affected): Record<string, unknown> {
  const type = parent.definition.key;
  const id = parent.obj.id;
  if (field.type === 'generic_fk') return { [field.typeField!]: type, [field.idField!]: id };
  if (field.type === 'generic_list') return { [field.name]: { $elemMatch: { object_type: type, object_id: id } } };
  return { [field.name]: id };
}

/** Takes `parent` out of the dependant's field: out of a list, or the foreign key nulled. */
function clear(plan: DeletePlan, key: string, entry: Affected, { field }: ModelReference, parent: Affected): void {
  const current = plan.cleared.get(key) ?? { ...entry, before: entry.obj };
  const value = current.obj[field.name];
  let next: unknown;
  if (field.type === 'generic_list') {
    const items = (Array.isArray(value) ? value : []) as GenericListItem[];
    next = items.filter((item) => item.object_type !== parent.definition.key || item.object_id !== parent.obj.id);
  } else {
    next = Array.isArray(value) ? value.filter((v) => v !== parent.obj.id) : null;
  }
  const alongside = next === null ? (field.clearsWith ?? {}) : {};
  plan.cleared.set(key, { ...current, obj: { ...current.obj, ...alongside, [field.name]: next } });
}

/** Objects a model's own rule says protect a doomed object (a virtual chassis's cross-chassis LAG members). */
async function collectRuleBlockers(registry: ModelRegistry, view: LookupView, plan: DeletePlan): Promise<void> {
  for (const doomed of plan.order) {
    const protectors = doomed.definition.hooks?.protectedBy;
    if (!protectors) continue;
    for (const { model, obj } of await protectors(doomed.obj, view)) {
      const definition = registry.tryGet(model);
      if (!definition) continue;
      plan.blockers.set(`${model}:${obj.id}`, {
        definition,
        obj: storedForm(obj),
        display: String(obj.display ?? obj.id),
      });
    }
  }
}

function refuseIfProtected(plan: DeletePlan): void {
  const remaining = [...plan.blockers.entries()].filter(([key]) => !plan.doomed.has(key)).map(([, b]) => b);
  if (remaining.length === 0) return;
  const names = remaining.map((b) => `${b.display} (${b.obj.id})`).join(', ');
  throw new ConflictError(`Unable to delete object. ${remaining.length} dependent objects were found: ${names}`);
}

async function recordClearing(tx: WriteTransaction, plan: DeletePlan): Promise<void> {
  const budget = new TurnBudget();
  for (const [key, entry] of plan.cleared) {
    if (plan.doomed.has(key)) continue;
    if (budget.due()) await budget.pause();
    tx.record({
      action: 'update',
      objectType: entry.definition.key,
      objectId: entry.obj.id,
      objectRepr: entry.display,
      prechange: entry.before,
      postchange: { ...entry.obj, last_updated: tx.time },
      related: entry.definition.hooks?.relatedObject?.(entry.obj) ?? null,
    });
  }
}

/** Dependants go before what they depend on, as a database's cascade would remove them. */
async function recordDeletions(tx: WriteTransaction, plan: DeletePlan): Promise<void> {
  const budget = new TurnBudget();
  for (const entry of [...plan.order].reverse()) {
    if (budget.due()) await budget.pause();
    tx.record({
      action: 'delete',
      objectType: entry.definition.key,
      objectId: entry.obj.id,
      objectRepr: entry.display,
      prechange: entry.obj,
      postchange: null,
      related: entry.definition.hooks?.relatedObject?.(entry.obj) ?? null,
    });
  }
}
