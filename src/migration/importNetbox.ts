/**
 * `manage import-netbox`: every object of a NetBox 3.x (or another netledger) read
 * through its REST API and written into an empty netledger under the same ids, as ONE
 * request of the single writer: one batch of events, appended as one frame of the log
 * (one Kafka transaction), so an interrupted import leaves nothing behind and is simply
 * run again. See README, "Moving from NetBox".
 */
import { randomUUID } from 'node:crypto';

import type { CommandEnvironment } from '../commands/CommandEnvironment.js';
import { type PastChange, recordPastChanges } from '../commands/importHistory.js';
import {
  completeImportedObjects,
  type ImportedObject,
  importObjects,
  restampImportedObjects,
} from '../commands/importObjects.js';
import { storedForm } from '../commands/storedForm.js';
import type { WriteCoordinator, WriteTransaction } from '../commands/WriteCoordinator.js';
import type { ModelDefinition } from '../models/modelDefinition.js';
import type { ModelRegistry } from '../models/registry.js';
import type { ReadStore } from '../projections/ReadStore.js';
import { derivedObjectsOf } from './derivedObjects.js';
import { importOrder, isStoredFile, orderWithinModel } from './importOrder.js';
import { pastChangesOf } from './pastChanges.js';
import type { SourceApi } from './SourceApi.js';
import { writeInputOf } from './writeInput.js';

/** What the import writes with: an open ledger's writer and read models. */
export interface ImportTarget {
  registry: ModelRegistry;
  store: ReadStore;
  coordinator: WriteCoordinator;
  commands: CommandEnvironment;
}

/** Hears how far the import is: reading the source, then writing, model by model. */
export interface ImportProgress {
  reading?(model: string, read: number, total: number): void;
  read?(model: string, count: number): void;
  writing?(model: string, written: number, total: number): void;
  wrote?(model: string, count: number): void;
  phase?(text: string): void;
}

export interface ImportOptions {
  source: SourceApi;
  /** Keys for the source's API tokens, by token id (the API never shows them). */
  tokenKeys?: ReadonlyMap<number, string>;
  progress?: ImportProgress;
  /**
   * Usernames to make superusers: the flag is not in NetBox's API (its users come over as
   * ordinary users with their groups and permissions).
   */
  superusers?: readonly string[];
  /** Leave the source's change log behind (the imported objects then begin at the import). */
  withoutHistory?: boolean;
}

export interface ImportSummary {
  /** model key → objects imported. */
  counts: Record<string, number>;
  /** Models the source does not serve (an older NetBox). */
  notServed: string[];
  events: number;
  objects: number;
  /** Past changes recorded from the source's change log, of which synthetic baselines. */
  pastChanges: number;
  baselines: number;
  readSeconds: number;
  writeSeconds: number;
}

/** Models read from the source at once (each reads its pages a few at a time too). */
const MODELS_READ_AT_ONCE = 3;

/** The target holds objects already: the import writes into an empty netledger only. */
export class TargetNotEmptyError extends Error {}

export async function importNetbox(target: ImportTarget, options: ImportOptions): Promise<ImportSummary> {
  const { source, progress = {} } = options;
  const nonEmpty = Object.entries(await target.store.maxIds()).filter(([, max]) => max > 0);
  if (nonEmpty.length > 0) {
    const models = nonEmpty.map(([model]) => model).join(', ');
    throw new TargetNotEmptyError(
      `the netledger is not empty (it holds ${models}): import into an empty data directory, before the service's first start (which creates its superuser)`,
    );
  }
  const order = importOrder(target.registry);
  // Read-only models are read too: the objects derived again from the written ones keep their ids.
  const derivedModels = target.registry.all().filter((m) => m.readOnly && !isStoredFile(m));
  const toRead = [...order.models, ...derivedModels];
  const readStarted = Date.now();
  const fetched = new Map<ModelDefinition, Array<Record<string, unknown>>>();
  const notServed: string[] = [];
  // Several models are read at once (most are small: one request each); written in order.
  const lists = new Map<ModelDefinition, Array<Record<string, unknown>> | null>();
  let next = 0;
  const reader = async () => {
    while (next < toRead.length) {
      const model = toRead[next++];
      const objects = await source.list(`${model.app}/${model.path}`, (read, total) =>
        progress.reading?.(model.key, read, total),
      );
      lists.set(model, objects);
      if (objects) progress.read?.(model.key, objects.length);
    }
  };
  await Promise.all(Array.from({ length: MODELS_READ_AT_ONCE }, reader));
  for (const model of order.models) {
    const objects = lists.get(model);
    if (objects) fetched.set(model, orderWithinModel(model, objects));
    else notServed.push(model.key);
  }
  const derived = derivedObjectsOf(
    new Map(derivedModels.flatMap((model) => (lists.get(model) ? [[model.key, lists.get(model)!]] : []))),
  );
  let history: ReturnType<typeof pastChangesOf> = { changes: [], baselines: 0, skipped: 0 };
  if (!options.withoutHistory) {
    const changes = await source.list('extras/object-changes', (read, total) =>
      progress.reading?.('extras.objectchange', read, total),
    );
    if (changes) {
      const tags = [...fetched].find(([model]) => model.key === 'extras.tag')?.[1] ?? [];
      const types = (await source.list('extras/content-types')) ?? [];
      const contentTypes = new Map(
        types.map((type) => [Number(type.id), `${String(type.app_label)}.${String(type.model)}`]),
      );
      history = pastChangesOf(
        target.registry,
        changes,
        new Map(tags.map((tag) => [String(tag.name), Number(tag.id)])),
        contentTypes,
      );
      progress.read?.('extras.objectchange', changes.length);
    }
  }
  const readSeconds = (Date.now() - readStarted) / 1000;

  const writeStarted = Date.now();
  const counts: Record<string, number> = {};
  const completions: Array<[ModelDefinition, ImportedObject[]]> = [];
  const all: Array<[ModelDefinition, ImportedObject[]]> = [];
  const { events } = await target.coordinator.execute({ requestId: randomUUID(), user: null }, async (tx) => {
    if (history.changes.length > 0)
      progress.phase?.(`recording ${history.changes.length} past changes (${history.baselines} baselines)`);
    recordPastChanges(tx, history.changes);
    const overHistory = history.changes.length > 0;
    for (const [model, objects] of fetched) {
      const inputOptions = {
        deferred: order.deferred.get(model.key),
        tokenKeys: options.tokenKeys,
        creationTimes: creationTimesOf(history.changes, model.key),
      };
      const split = objects.map((o) => writeInputOf(model, o, inputOptions));
      const created = split.map((s) => s.create);
      for (let i = 0; i < created.length; i += 500) {
        await importObjects(target.commands, tx, model, created.slice(i, i + 500), { overHistory, derived });
        progress.writing?.(model.key, Math.min(i + 500, created.length), created.length);
      }
      counts[model.key] = created.length;
      progress.wrote?.(model.key, created.length);
      const later = split.flatMap((s) => (s.complete ? [s.complete] : []));
      if (later.length > 0) completions.push([model, later]);
      all.push([model, created]);
    }
    progress.phase?.('setting held-back references (primary IPs, chassis masters, object custom fields)');
    for (const [model, items] of completions) await completeImportedObjects(target.commands, tx, model, items, derived);
    progress.phase?.('restoring created/last_updated touched by the import');
    for (const [model, items] of all) await restampImportedObjects(tx, model, items);
    await grantSuperusers(tx, options.superusers ?? []);
    progress.phase?.(`appending ${tx.events.length} events as one batch`);
  });
  const objects = Object.values(counts).reduce((a, b) => a + b, 0);
  return {
    counts,
    notServed,
    events: events.length,
    objects,
    pastChanges: history.changes.length,
    baselines: history.baselines,
    readSeconds,
    writeSeconds: (Date.now() - writeStarted) / 1000,
  };
}

/** The superuser flag (internal: no client writes it) for the named imported users, as bootstrapping a superuser does. */
async function grantSuperusers(tx: WriteTransaction, usernames: readonly string[]): Promise<void> {
  for (const username of usernames) {
    const [user] = await tx.view.find('auth.user', { username: { $eq: username } }, 1);
    if (!user) throw new Error(`--superusers: the source has no user named "${username}"`);
    const previous = storedForm(user);
    if (previous.is_superuser === true) continue;
    const postchange = { ...previous, is_superuser: true };
    tx.record({
      action: 'update',
      objectType: 'auth.user',
      objectId: previous.id,
      objectRepr: username,
      prechange: previous,
      postchange,
    });
  }
}

/** When each object of one model was created, by id, as the recorded history says. */
function creationTimesOf(changes: readonly PastChange[], model: string): Map<number, string> {
  const times = new Map<number, string>();
  for (const change of changes)
    if (change.action === 'create' && change.objectType === model) times.set(change.objectId, change.time);
  return times;
}
