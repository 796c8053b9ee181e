import { randomUUID } from 'node:crypto';

import type { ExecutionContext } from 'ava';

import { SecretKeeper } from '../../src/auth/secrets.js';
import { createBranch, markMerged } from '../../src/branches/branchCommands.js';
import { Branches } from '../../src/branches/Branches.js';
import { BRANCH } from '../../src/branches/branchRecord.js';
import { mergeBranch } from '../../src/branches/mergeBranch.js';
import { syncWithMain } from '../../src/branches/syncWithMain.js';
import type { Clock } from '../../src/commands/clock.js';
import { createObjects } from '../../src/commands/createObjects.js';
import type { CommandEnvironment } from '../../src/commands/decideObject.js';
import { deleteObjects } from '../../src/commands/deleteObjects.js';
import { runFollowUps } from '../../src/commands/followUps.js';
import { type PastChange, recordPastChanges } from '../../src/commands/importHistory.js';
import { type DerivedObjects, type ImportedObject, importObjects } from '../../src/commands/importObjects.js';
import { updateObjects } from '../../src/commands/updateObjects.js';
import { type WriteContext, WriteCoordinator } from '../../src/commands/WriteCoordinator.js';
import type { FieldErrors } from '../../src/errors/fieldErrors.js';
import { ValidationError } from '../../src/errors/requestErrors.js';
import { type ChangeEvent, EVENT_SCHEMA_VERSION, type EventUser } from '../../src/events/ChangeEvent.js';
import type { ModelSettings } from '../../src/models/modelHooks.js';
import { type ModelRegistry, registry as defaultRegistry } from '../../src/models/registry.js';
import type { PatternChecker } from '../../src/models/values/patternChecks.js';
import { lookupView } from '../../src/projections/lookupView.js';
import { MemoryReadStore } from '../../src/projections/memory/MemoryReadStore.js';
import { Projector } from '../../src/projections/Projector.js';
import { readModelIndexes } from '../../src/projections/readModelIndexes.js';
import { MemoryEventLog } from './MemoryEventLog.js';

/**
 * Given / when / then for the write side, without HTTP:
 *
 *   await deciderSpec(t)
 *     .given([create('dcim.site', { name: 'DC-1', slug: 'dc-1' })])
 *     .when(patch('dcim.site', 1, { description: 'main' }))
 *     .then([{ action: 'update', objectType: 'dcim.site', objectId: 1, postchange: { description: 'main' } }]);
 *
 * `given` takes events (appended to a fresh in-memory log and projected into a fresh
 * MemoryReadStore by the real Projector), or commands, which are decided first and
 * stand for the events they produce. Ids are allocated per model from 1, as in an
 * empty registry. `when` runs one request through the single writer; `then` checks the
 * events it appended, `thenThrows` the refusal and that nothing was appended.
 *
 * Every decision is timestamped by a fixed clock: GIVEN_TIME for the given commands,
 * WHEN_TIME for the request under test.
 */

export const GIVEN_TIME = '2024-01-01T00:00:00.000000Z';
export const WHEN_TIME = '2024-06-01T12:00:00.000000Z';
export const TEST_USER: EventUser = { id: 1, username: 'admin' };
const SECRET_KEY = 'decider-spec-secret-key';

/* ------------------------------------------------------------------ commands */

/** One request to the write side, as the HTTP layer would hand it over. */
export type WriteCommand =
  | { kind: 'create'; model: string; items: unknown[]; bulk: boolean }
  | {
      kind: 'update';
      model: string;
      items: Array<{ id: number; input: unknown }>;
      mode: 'put' | 'patch';
      bulk: boolean;
    }
  | { kind: 'delete'; model: string; ids: number[]; bulk: boolean }
  | { kind: 'import'; model: string; items: ImportedObject[]; history?: PastChange[]; derived?: DerivedObjects }
  | { kind: 'branching'; model: typeof BRANCH; op: 'create' | 'sync' | 'merge'; schemaId: string; input?: unknown }
  | { kind: 'inBranch'; model: string; schemaId: string; command: WriteCommand };

/** A branch created on main (README: Branches), with the schema_id given (drawn at random by the API). */
export function createBranchCommand(schemaId: string, input: unknown = { name: schemaId }): WriteCommand {
  return { kind: 'branching', model: BRANCH, op: 'create', schemaId, input };
}

/** The merge of a branch into main (`POST .../merge/ {"commit": true}`). */
export function mergeCommand(schemaId: string): WriteCommand {
  return { kind: 'branching', model: BRANCH, op: 'merge', schemaId };
}

/** The sync of a branch (`POST .../sync/ {"commit": true}`). */
export function syncCommand(schemaId: string): WriteCommand {
  return { kind: 'branching', model: BRANCH, op: 'sync', schemaId };
}

/** A request made with `X-NetBox-Branch: <schemaId>`: decided in the branch, its events the branch's. */
export function inBranch(schemaId: string, command: WriteCommand): WriteCommand {
  return { kind: 'inBranch', model: command.model, schemaId, command };
}

/** POST of one object. */
export function create(model: string, input: unknown): WriteCommand {
  return { kind: 'create', model, items: [input], bulk: false };
}

/** POST of a list: all or none. */
export function createMany(model: string, inputs: unknown[]): WriteCommand {
  return { kind: 'create', model, items: inputs, bulk: true };
}

/** PATCH of one object. */
export function patch(model: string, id: number, input: unknown): WriteCommand {
  return { kind: 'update', model, items: [{ id, input }], mode: 'patch', bulk: false };
}

/** PUT of one object. */
export function put(model: string, id: number, input: unknown): WriteCommand {
  return { kind: 'update', model, items: [{ id, input }], mode: 'put', bulk: false };
}

/** PATCH on the list view: each item names its object by `id`. */
export function patchMany(model: string, items: Array<{ id: number } & Record<string, unknown>>): WriteCommand {
  return {
    kind: 'update',
    model,
    items: items.map((item) => ({ id: item.id, input: item })),
    mode: 'patch',
    bulk: true,
  };
}

/** Objects brought from another registry under their own ids (manage import-netbox). */
export function importMany(
  model: string,
  items: ImportedObject[],
  history?: PastChange[],
  derived?: DerivedObjects,
): WriteCommand {
  return { kind: 'import', model, items, history, derived };
}

/** DELETE of one object. */
export function remove(model: string, id: number): WriteCommand {
  return { kind: 'delete', model, ids: [id], bulk: false };
}

/** DELETE on the list view. */
export function removeMany(model: string, ids: number[]): WriteCommand {
  return { kind: 'delete', model, ids, bulk: true };
}

/** The ports a request is decided against: the log and the read models projected from it. */
interface Ports {
  log: MemoryEventLog;
  store: MemoryReadStore;
  projector: Projector;
  branches: Branches;
}

/**
 * The only place that knows how src/commands decides a request: the single writer,
 * and which function handles which command with what arguments. When those change,
 * this function is all that needs to follow. A writer per request: it learns the
 * log's head and the highest ids at init, as a restarted service would.
 */
async function runRequest(
  env: CommandEnvironment,
  { log, store, projector, branches }: Ports,
  clock: Clock,
  context: WriteContext,
  command: WriteCommand,
): Promise<{ events: ChangeEvent[]; reply: WriteReply }> {
  const coordinator = new WriteCoordinator(log, store, projector, env.registry, clock, { branches });
  await coordinator.init();
  if (command.kind === 'inBranch') {
    const view = branches.view(command.schemaId);
    if (!view) throw new Error(`no open branch ${command.schemaId}`);
    context = { ...context, branch: view.target() };
    command = command.command;
  }
  if (command.kind === 'branching') {
    const { schemaId } = command;
    if (command.op === 'sync') {
      // As the API syncs: main's values for the fields both changed, in the branch, then the fork moved.
      const view = branches.view(schemaId);
      if (!view) throw new Error(`no open branch ${schemaId}`);
      const { events } = await syncWithMain(coordinator, view, context, lookupView(store));
      return { events, reply: { ids: [...new Set(events.map((e) => e.objectId))], revealed: new Map() } };
    }
    const { events } = await coordinator.execute(context, async (tx) => {
      if (command.op === 'create') return createBranch(tx, command.input, schemaId);
      const view = branches.view(schemaId);
      if (!view) throw new Error(`no open branch ${schemaId}`);
      // As the API merges: the branch's changes, then the branch marked merged, in one request.
      const made = await mergeBranch(env.registry, tx, view);
      await markMerged(tx, view.record.id, context.requestId);
      return made;
    });
    return { events, reply: { ids: [...new Set(events.map((e) => e.objectId))], revealed: new Map() } };
  }
  if (command.kind === 'inBranch') throw new Error('a request is in one branch');
  const definition = env.registry.get(command.model);
  const { result, events } = await coordinator.execute(context, async (tx) => {
    switch (command.kind) {
      case 'create':
        return createObjects(env, tx, definition, command.items, { bulk: command.bulk });
      case 'update':
        return updateObjects(env, tx, definition, command.items, { mode: command.mode, bulk: command.bulk });
      case 'delete':
        return deleteObjects(env, tx, definition, command.ids, { bulk: command.bulk });
      case 'import':
        if (command.history) recordPastChanges(tx, command.history);
        return importObjects(env, tx, definition, command.items, {
          overHistory: command.history !== undefined,
          derived: command.derived,
        });
    }
  });
  return { events, reply: { ids: result?.ids ?? [], revealed: result?.revealed ?? new Map() } };
}

/** What the request answers besides its events: the objects written and the secrets shown once (a new token's key). */
export interface WriteReply {
  ids: number[];
  revealed: ReadonlyMap<number, Record<string, unknown>>;
}

/* -------------------------------------------------------------------- events */

/**
 * A creation event written by hand, for states no command would produce (an object
 * stored by an older version, a value decided under other rules). `postchange` is
 * stored as given: no defaults are added. Position and request id are assigned on append.
 */
export function objectCreated(
  model: string,
  id: number,
  postchange: Record<string, unknown>,
  repr?: string,
): ChangeEvent {
  return {
    v: EVENT_SCHEMA_VERSION,
    eventId: randomUUID(),
    position: 0,
    requestId: randomUUID(),
    time: GIVEN_TIME,
    user: TEST_USER,
    action: 'create',
    objectType: model,
    objectId: id,
    objectRepr: repr ?? String(postchange.name ?? postchange.slug ?? `${model} ${id}`),
    prechange: null,
    postchange: { created: GIVEN_TIME, last_updated: GIVEN_TIME, ...postchange },
    related: null,
  };
}

/** What an emitted event must look like: the fields named must match, nested objects partially. */
export type ExpectedEvent = Partial<Omit<ChangeEvent, 'prechange' | 'postchange'>> & {
  prechange?: Record<string, unknown> | null;
  postchange?: Record<string, unknown> | null;
};

/** The stored fields an update event changes (compared as JSON). */
export function changedFields(event: ChangeEvent): string[] {
  const before = event.prechange ?? {};
  const after = event.postchange ?? {};
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => JSON.stringify(before[name]) !== JSON.stringify(after[name])).sort();
}

/* ---------------------------------------------------------------------- spec */

export interface DeciderSpecOptions {
  /** The registry-wide rules (ENFORCE_GLOBAL_UNIQUE). */
  settings?: Partial<ModelSettings>;
  /** ALLOW_TOKEN_RETRIEVAL: whether a token key is also kept encrypted. */
  allowTokenRetrieval?: boolean;
  /** The models the request is decided against (default: netledger's own). */
  registry?: ModelRegistry;
  /** Where values are matched against custom fields' patterns (default: the shared checker). */
  patterns?: PatternChecker;
}

export type Given = ChangeEvent | WriteCommand;

export function deciderSpec(t: ExecutionContext, options: DeciderSpecOptions = {}) {
  const env: CommandEnvironment = {
    registry: options.registry ?? defaultRegistry,
    secrets: new SecretKeeper(SECRET_KEY, options.allowTokenRetrieval ?? true),
    settings: { enforceGlobalUnique: false, ...options.settings },
    followUps: runFollowUps,
    patterns: options.patterns,
  };
  const given = (history: Given | Given[] = []) => ({
    when: (command: WriteCommand) => new Outcome(t, env, Array.isArray(history) ? history : [history], command),
  });
  return { given, when: (command: WriteCommand) => given([]).when(command) };
}

type ExpectedError = FieldErrors | FieldErrors[] | string | RegExp;

/** The request under test, run lazily by one of the `then…` assertions. */
class Outcome {
  constructor(
    private readonly t: ExecutionContext,
    private readonly env: CommandEnvironment,
    private readonly history: Given[],
    private readonly command: WriteCommand,
  ) {}

  /**
   * The request succeeds and appends exactly these events, in this order, as one batch
   * of its own (or passes the assertion callback, which may also read the read models the
   * events were projected into). Resolves to the events for further checks.
   */
  async then(
    expected:
      | ExpectedEvent[]
      | ((
          events: ChangeEvent[],
          reply: WriteReply,
          state: { store: MemoryReadStore; branches: Branches },
        ) => void | Promise<void>),
  ): Promise<ChangeEvent[]> {
    const run = await this.run();
    try {
      if (run.error) this.t.fail(`the request was refused: ${describe(run.error)}`);
      const events = run.events;
      this.checkBatch(run, events);
      if (typeof expected === 'function') {
        await expected(events, run.reply, { store: run.store, branches: run.branches });
      } else {
        this.t.is(
          events.length,
          expected.length,
          `events: ${events.map((e) => `${e.action} ${e.objectType} ${e.objectId}`).join(', ')}`,
        );
        expected.forEach((e, i) => {
          if (events[i]) this.t.like(events[i], e as Record<string, unknown>, `event ${i + 1}`);
        });
      }
      return events;
    } finally {
      await run.close();
    }
  }

  /** The request succeeds and changes nothing. */
  async thenNothingHappened(): Promise<void> {
    const run = await this.run();
    try {
      if (run.error) this.t.fail(`the request was refused: ${describe(run.error)}`);
      this.t.deepEqual(run.events, []);
      this.t.is(run.log.appends, run.appendsBefore, 'nothing appended');
    } finally {
      await run.close();
    }
  }

  /**
   * The request is refused with this error class and appends nothing. `expected` is
   * the ValidationError's body (compared exactly) or, for other errors, the message.
   */
  async thenThrows(errorClass: abstract new (...args: never[]) => Error, expected?: ExpectedError): Promise<Error> {
    const run = await this.run();
    try {
      const { error } = run;
      if (!error) {
        this.t.fail(
          `the request was not refused; it appended: ${run.events.map((e) => `${e.action} ${e.objectType} ${e.objectId}`).join(', ')}`,
        );
        return new Error('not refused');
      }
      this.t.true(error instanceof errorClass, `expected ${errorClass.name}, got ${describe(error)}`);
      if (expected instanceof RegExp) this.t.regex(error.message, expected);
      else if (typeof expected === 'string') this.t.is(error.message, expected);
      else if (expected !== undefined)
        this.t.deepEqual(error instanceof ValidationError ? error.body : error.message, expected);
      this.t.is(run.log.head(), run.headBefore, 'a refused request appends nothing');
      this.t.is(run.log.appends, run.appendsBefore, 'a refused request appends nothing');
      this.t.is(await run.store.position(), run.headBefore, 'the read models are untouched');
      return error;
    } finally {
      await run.close();
    }
  }

  /**
   * Every request's events: one atomic batch at the head of the log, one request id, one
   * decision time, and no secret shown to the client in clear in any of them.
   */
  private checkBatch(run: Run, events: ChangeEvent[]): void {
    const logged = JSON.stringify(events);
    for (const secrets of run.reply.revealed.values()) {
      for (const secret of Object.values(secrets))
        this.t.false(logged.includes(String(secret)), 'a revealed secret is in an event');
    }
    if (events.length === 0) return;
    const positions = events.map((e) => e.position);
    this.t.deepEqual(
      positions,
      positions.map((_, i) => run.headBefore + 1 + i),
      'positions continue the log densely',
    );
    // A sync is two requests of the writer (main's values in the branch, then the fork moved): README, Branches.
    const sync = this.command.kind === 'branching' && this.command.op === 'sync';
    const appends = run.log.appends - run.appendsBefore;
    if (sync) this.t.true(appends === 1 || appends === 2, 'a sync appends once or twice');
    else this.t.is(appends, 1, 'one append per request');
    this.t.deepEqual(run.log.storage.batches.slice(-appends).flat(), events, 'appended as one batch');
    // An import's history keeps each past change's own request, time and user.
    const past = new Set(this.command.kind === 'import' ? (this.command.history ?? []).map((c) => c.requestId) : []);
    const own = events.filter((e) => !past.has(e.requestId));
    this.t.deepEqual(
      new Set(own.map((e) => e.requestId)),
      new Set([run.requestId]),
      'the request id is on every event',
    );
    this.t.true(
      own.every((e) => e.time === WHEN_TIME && (e.user?.id === TEST_USER.id || e.mergedFrom)),
      'decision time and user on every event (a merge keeps the user who made each change in the branch)',
    );
  }

  private async run(): Promise<Run> {
    const log = new MemoryEventLog();
    const store = new MemoryReadStore();
    await log.open();
    await store.open();
    for (const [collection, fields] of readModelIndexes(this.env.registry))
      await store.ensureIndexes(collection, fields);
    const projector = new Projector(log, store, this.env.registry);
    const branches = new Branches(this.env.registry, store, log);
    projector.beforeApply = (events, changes) => branches.observe(events, changes);
    await projector.start();
    const ports = { log, store, projector, branches };
    const close = async () => {
      await projector.stop();
      await log.close();
      await store.close();
    };
    try {
      await this.replay(ports);
      const requestId = randomUUID();
      const headBefore = log.head();
      const appendsBefore = log.appends;
      try {
        const { events, reply } = await runRequest(
          this.env,
          ports,
          fixedClock(WHEN_TIME),
          { requestId, user: TEST_USER },
          this.command,
        );
        return { log, store, branches, requestId, headBefore, appendsBefore, events, reply, error: null, close };
      } catch (error) {
        if (!(error instanceof Error)) throw error;
        return {
          log,
          store,
          branches,
          requestId,
          headBefore,
          appendsBefore,
          events: [],
          reply: { ids: [], revealed: new Map() },
          error,
          close,
        };
      }
    } catch (error) {
      await close();
      throw error;
    }
  }

  /** Build the given state: events are appended as they are, commands are decided first. */
  private async replay(ports: Ports): Promise<void> {
    const { log, projector } = ports;
    for (let i = 0; i < this.history.length; i++) {
      const item = this.history[i];
      if (isCommand(item)) {
        try {
          await runRequest(this.env, ports, fixedClock(GIVEN_TIME), { requestId: randomUUID(), user: TEST_USER }, item);
        } catch (error) {
          throw new Error(`given item ${i + 1} (${item.kind} ${item.model}) was refused: ${describe(error)}`);
        }
      } else {
        await log.append([{ ...item, position: log.head() + 1 }]);
        await projector.waitFor(log.head());
      }
    }
  }
}

interface Run {
  log: MemoryEventLog;
  store: MemoryReadStore;
  branches: Branches;
  requestId: string;
  headBefore: number;
  appendsBefore: number;
  events: ChangeEvent[];
  reply: WriteReply;
  error: Error | null;
  close(): Promise<void>;
}

function fixedClock(time: string): Clock {
  return { now: () => time };
}

function isCommand(item: Given): item is WriteCommand {
  return 'kind' in item && !('eventId' in item);
}

function describe(error: unknown): string {
  if (error instanceof ValidationError) return `${error.constructor.name} ${JSON.stringify(error.body)}`;
  return error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error);
}
