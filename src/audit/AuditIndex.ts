import type { ChangeAction, ChangeEvent } from '../events/ChangeEvent.js';
import type { ModelRegistry } from '../models/registry.js';
import { Column, Dictionary, StringPool } from './columns.js';
import { ALL_FIELDS, changedFieldMarks, type FieldMarks } from './fieldMarks.js';
import { LastUpdatedStamps } from './lastUpdatedStamps.js';
import { ID_SPACE, ObjectLastTable } from './objectLastTable.js';
import { STRING_TABLE_HASH, StringTable } from './stringTable.js';
import { eventTimeMicros } from './time.js';

export const ACTIONS: readonly ChangeAction[] = ['create', 'update', 'delete'];
const ACTION_CODE: Record<ChangeAction, number> = { create: 0, update: 1, delete: 2 };
const CREATE = ACTION_CODE.create;
const UPDATE = ACTION_CODE.update;

/** The index's state at one position, as a snapshot holds it (see capture() and load()). */
export interface AuditIndexImage {
  head: number;
  ordered: boolean;
  /** Whether every `last_updated` the events carry is known and none went backwards (absent before format 3: not known). */
  stampsOrdered?: boolean;
  stampMax?: number;
  lastTimeText: string;
  lastTimeMicros: number;
  columns: {
    times: Float64Array<ArrayBuffer>;
    timeMax: Float64Array<ArrayBuffer>;
    actions: Uint8Array<ArrayBuffer>;
    types: Uint16Array<ArrayBuffer>;
    objectIds: Float64Array<ArrayBuffer>;
    userIds: Int32Array<ArrayBuffer>;
    userNames: Uint32Array<ArrayBuffer>;
    requests: Uint32Array<ArrayBuffer>;
    prevOfRequest: Float64Array<ArrayBuffer>;
    prevOfObject: Float64Array<ArrayBuffer>;
    logged: Uint8Array<ArrayBuffer>;
    loggedList: Float64Array<ArrayBuffer>;
    requestLast: Float64Array<ArrayBuffer>;
    /** Absent in images of format 1: every event then counts as changing every field. */
    fieldMarks?: Uint32Array<ArrayBuffer>;
    /** Absent in images before format 3: every past `last_updated` is then read from its event. */
    lastUpdated?: Float64Array<ArrayBuffer>;
    /** With lastUpdated: the positions whose stamp is below an earlier one (LastUpdatedStamps.late). */
    lateStamps?: Float64Array<ArrayBuffer>;
  };
  reprs: { bytes: Buffer; starts: Float64Array<ArrayBuffer> };
  types: string[];
  userNames: string[];
  requestIds: string[];
  /** The request table's slots (StringTable.slotsImage) and the hash they were made with; absent in older snapshots. */
  requestSlots?: { hash: string; slots: Int32Array<ArrayBuffer> };
  loggedTypes: Array<[number, boolean]>;
  /** objectLast as two parallel columns. */
  objectKeys: Float64Array<ArrayBuffer>;
  objectLasts: Float64Array<ArrayBuffer>;
  bigObjectLast: Array<[string, number]>;
  reverts: Array<[string, string[]]>;
}

/** The `logged` column's mark of a change made inside a branch. */
const BRANCH_CHANGE = 2;

/**
 * The log-side secondary indexes of the audit queries, kept in memory and fed the
 * log's committed batches in order (so they work the same over every EventLog adapter):
 *
 * - request id → its positions (a chain through the positions, newest first),
 * - object (type, id) → its positions (likewise),
 * - time → position (binary search over the running maximum of event times),
 * - per position, a few bytes of metadata (time, action, type, object id, user,
 *   request, repr) so filters run over typed arrays without reading event bodies.
 *
 * Look-ups cost O(log n + matches). Positions are dense (1, 2, 3 ...), so every
 * column is indexed by position directly. The index is rebuilt from the log on open;
 * event bodies are read from the log itself by position (EventLog.readPositions).
 */
export class AuditIndex {
  private last = 0;
  private readonly times = new Column(Float64Array);
  private readonly timeMax = new Column(Float64Array);
  private readonly actions = new Column(Uint8Array);
  private readonly types = new Column(Uint16Array);
  private readonly objectIds = new Column(Float64Array);
  private readonly userIds = new Column(Int32Array);
  private readonly userNames = new Column(Uint32Array);
  private readonly requests = new Column(Uint32Array);
  private readonly prevOfRequest = new Column(Float64Array);
  private readonly prevOfObject = new Column(Float64Array);
  private readonly reprs = new StringPool();
  /** Which fields each event changed (fieldMarks.ts): past views overlay what differs in the fields read. */
  private readonly fieldMarks = new Column(Uint32Array);
  /** Each event's version's `last_updated` (PastView orders and filters by them without reading events). */
  readonly stamps = new LastUpdatedStamps();
  /** 1 when the event's model is change-logged (shown in object changes); BRANCH_CHANGE for a change made in a branch. */
  private readonly logged = new Column(Uint8Array);
  /** Positions of change-logged events, ascending. */
  private readonly loggedList = new Column(Float64Array);
  private readonly loggedTypes = new Map<number, boolean>();

  private readonly typeDictionary = new Dictionary();
  private readonly userNameDictionary = new Dictionary();
  /** Request id → ordinal (a hash table, not a Map: see StringTable, for the start-up's sake). */
  private readonly requestTable = new StringTable();
  private readonly requestIds = this.requestTable.values;
  private readonly requestLast = new Column(Float64Array);
  /** Object (type code, id below ID_SPACE) → its last position (columns, not a Map: see ObjectLastTable). */
  private readonly objectLast = new ObjectLastTable();
  private readonly bigObjectLast = new Map<string, number>();
  private readonly reverts = new Map<string, string[]>();
  private ordered = true;
  /** The events of one request share their time: parse it once per batch. */
  private lastTimeText = '';
  private lastTimeMicros = 0;

  /** `registry`: which models are change-logged (events of the others are not object changes). */
  constructor(private readonly registry: ModelRegistry) {
    // Slot 0 is unused so that every column is indexed by position.
    this.times.push(0);
    this.timeMax.push(-Infinity);
    this.actions.push(0);
    this.types.push(0);
    this.objectIds.push(0);
    this.userIds.push(-1);
    this.userNames.push(0);
    this.requests.push(0);
    this.prevOfRequest.push(0);
    this.prevOfObject.push(0);
    this.reprs.push('');
    this.logged.push(0);
    this.fieldMarks.push(ALL_FIELDS);
  }

  /** The last position indexed (0 when empty). */
  get head(): number {
    return this.last;
  }

  /** True while event times never went backwards: time filters can then use binary search alone. */
  get timesOrdered(): boolean {
    return this.ordered;
  }

  /**
   * Indexes a committed batch. Positions at or below the head are skipped (a re-delivery);
   * a gap is an error, and then nothing of the batch is indexed.
   */
  add(batch: readonly ChangeEvent[]): void {
    const fresh = batch[0] && batch[0].position <= this.last ? batch.filter((e) => e.position > this.last) : batch;
    for (let i = 0; i < fresh.length; i++) {
      if (fresh[i]!.position !== this.last + 1 + i) {
        throw new Error(`AuditIndex: expected position ${this.last + 1 + i}, got ${fresh[i]!.position}`);
      }
    }
    for (const event of fresh) this.addOne(event);
  }

  private addOne(event: ChangeEvent): void {
    const p = event.position;
    if (event.time !== this.lastTimeText) {
      this.lastTimeText = event.time;
      this.lastTimeMicros = eventTimeMicros(event.time);
    }
    const time = this.lastTimeMicros;
    const previousMax = this.timeMax.get(p - 1);
    if (time < previousMax) this.ordered = false;
    this.times.push(time);
    this.timeMax.push(Math.max(time, previousMax));
    this.actions.push(ACTION_CODE[event.action] ?? 1);
    const type = this.typeDictionary.code(event.objectType);
    this.types.push(type);
    let logged = this.loggedTypes.get(type);
    // Models that are not change-logged (users, tokens ...) say so in their definitions; their events
    // are in the log like any other and in their objects' history, but not in object changes.
    if (logged === undefined)
      this.loggedTypes.set(type, (logged = this.registry.tryGet(event.objectType)?.changeLogged !== false));
    // A change made inside a branch is the branch's, not main's change log (its merge is): 2 marks it.
    const shown = logged && !event.branch;
    this.logged.push(event.branch ? BRANCH_CHANGE : shown ? 1 : 0);
    if (shown) this.loggedList.push(p);
    this.objectIds.push(event.objectId);
    this.userIds.push(event.user ? event.user.id : -1);
    this.userNames.push(this.userNameDictionary.code(event.user?.username ?? ''));
    this.reprs.push(event.objectRepr);
    this.fieldMarks.push(changedFieldMarks(this.registry, event));
    this.stamps.add(event);

    const requestId = event.requestId.toLowerCase();
    let ordinal = this.requestTable.find(requestId);
    if (ordinal === undefined) {
      ordinal = this.requestTable.add(requestId);
      this.requestLast.push(0);
    }
    this.requests.push(ordinal);
    this.prevOfRequest.push(this.requestLast.get(ordinal));
    this.requestLast.set(ordinal, p);

    if (event.objectId < ID_SPACE) {
      this.prevOfObject.push(this.objectLast.get(type, event.objectId));
      this.objectLast.set(type, event.objectId, p);
    } else {
      const key = `${type}:${event.objectId}`;
      this.prevOfObject.push(this.bigObjectLast.get(key) ?? 0);
      this.bigObjectLast.set(key, p);
    }

    if (event.revertOf) {
      const target = event.revertOf.toLowerCase();
      const list = this.reverts.get(target) ?? [];
      if (list.at(-1) !== requestId) list.push(requestId);
      this.reverts.set(target, list);
    }
    this.last = p;
  }

  /**
   * The state at the current head, for a snapshot. Cheap: the columns that only grow are
   * handed over as views of their used part (later adds write past it or into a grown copy),
   * only what later adds rewrite (each request's last position, the maps) is copied.
   */
  capture(): AuditIndexImage {
    const stamps = this.stamps.image();
    const { keys: objectKeys, lasts: objectLasts } = this.objectLast.entries();
    return {
      head: this.last,
      ordered: this.ordered,
      stampsOrdered: stamps.ordered,
      stampMax: stamps.max,
      lastTimeText: this.lastTimeText,
      lastTimeMicros: this.lastTimeMicros,
      columns: {
        times: this.times.used(),
        timeMax: this.timeMax.used(),
        actions: this.actions.used(),
        types: this.types.used(),
        objectIds: this.objectIds.used(),
        userIds: this.userIds.used(),
        userNames: this.userNames.used(),
        requests: this.requests.used(),
        prevOfRequest: this.prevOfRequest.used(),
        prevOfObject: this.prevOfObject.used(),
        logged: this.logged.used(),
        loggedList: this.loggedList.used(),
        requestLast: this.requestLast.used().slice(),
        fieldMarks: this.fieldMarks.used(),
        lastUpdated: stamps.column,
        lateStamps: stamps.late,
      },
      reprs: this.reprs.image(),
      types: this.typeDictionary.list(),
      userNames: this.userNameDictionary.list(),
      requestIds: this.requestIds.slice(),
      requestSlots: { hash: STRING_TABLE_HASH, slots: this.requestTable.slotsImage() },
      loggedTypes: [...this.loggedTypes],
      objectKeys,
      objectLasts,
      bigObjectLast: [...this.bigObjectLast],
      reverts: [...this.reverts].map(([target, by]) => [target, by.slice()]),
    };
  }

  /**
   * Takes a captured state as this (empty) index's own, so that adding the log's tail
   * after `image.head` makes it equal to an index built from the whole log. The image's
   * arrays are adopted, not copied: pass ones nothing else holds. Throws when the
   * image does not hang together (then discard this index).
   */
  load(image: AuditIndexImage): void {
    if (this.last !== 0) throw new Error('AuditIndex.load(): the index is not empty');
    const c = image.columns;
    const slots = image.head + 1;
    for (const column of [
      c.times,
      c.timeMax,
      c.actions,
      c.types,
      c.objectIds,
      c.userIds,
      c.userNames,
      c.requests,
      c.prevOfRequest,
      c.prevOfObject,
      c.logged,
    ]) {
      if (column.length !== slots)
        throw new RangeError(`AuditIndex.load(): a column holds ${column.length} slots, not ${slots}`);
    }
    if (image.reprs.starts.length !== slots + 1)
      throw new RangeError('AuditIndex.load(): the object representations do not match the head');
    if (c.requestLast.length !== image.requestIds.length || image.objectKeys.length !== image.objectLasts.length) {
      throw new RangeError('AuditIndex.load(): the request or object tables do not match');
    }
    this.times.adopt(c.times);
    this.timeMax.adopt(c.timeMax);
    this.actions.adopt(c.actions);
    this.types.adopt(c.types);
    this.objectIds.adopt(c.objectIds);
    this.userIds.adopt(c.userIds);
    this.userNames.adopt(c.userNames);
    this.requests.adopt(c.requests);
    this.prevOfRequest.adopt(c.prevOfRequest);
    this.prevOfObject.adopt(c.prevOfObject);
    this.logged.adopt(c.logged);
    this.loggedList.adopt(c.loggedList);
    this.requestLast.adopt(c.requestLast);
    if (c.fieldMarks) {
      if (c.fieldMarks.length !== slots)
        throw new RangeError(`AuditIndex.load(): the field marks hold ${c.fieldMarks.length} slots, not ${slots}`);
      this.fieldMarks.adopt(c.fieldMarks);
    } else this.fieldMarks.adopt(new Uint32Array(slots).fill(ALL_FIELDS));
    this.stamps.load(
      c.lastUpdated && {
        column: c.lastUpdated,
        late: c.lateStamps ?? new Float64Array(0),
        ordered: image.stampsOrdered === true,
        max: image.stampMax ?? -Infinity,
      },
      slots,
    );
    this.reprs.adopt(image.reprs.bytes, image.reprs.starts);
    this.typeDictionary.load(image.types);
    this.userNameDictionary.load(image.userNames);
    // The snapshot's slots spare hashing a million request ids; without them (older ones), they are hashed.
    if (image.requestSlots?.hash === STRING_TABLE_HASH)
      this.requestTable.adopt(image.requestIds, image.requestSlots.slots);
    else this.requestTable.load(image.requestIds);
    for (const [code, logged] of image.loggedTypes) this.loggedTypes.set(code, logged);
    this.objectLast.load(image.objectKeys, image.objectLasts);
    for (const [key, last] of image.bigObjectLast) this.bigObjectLast.set(key, last);
    for (const [target, by] of image.reverts) this.reverts.set(target, by.slice());
    this.ordered = image.ordered;
    this.lastTimeText = image.lastTimeText;
    this.lastTimeMicros = image.lastTimeMicros;
    this.last = image.head;
  }

  // ------------------------------------------------------------------ look-ups

  /** Positions of a request's events, ascending (empty when unknown). */
  requestPositions(requestId: string): number[] {
    const ordinal = this.requestTable.find(requestId.toLowerCase());
    if (ordinal === undefined) return [];
    return this.chain(this.requestLast.get(ordinal), this.prevOfRequest.data);
  }

  /** Whether any event carries this request id. */
  hasRequest(requestId: string): boolean {
    return this.requestTable.find(requestId.toLowerCase()) !== undefined;
  }

  /** Positions of an object's events, ascending (empty when the log never touched it). */
  objectPositions(type: string, id: number): number[] {
    const last = this.lastPositionOf(type, id);
    return last === 0 ? [] : this.chain(last, this.prevOfObject.data);
  }

  /** The object's last position at or before `at` (0 when none). */
  objectPositionAt(type: string, id: number, at: number): number {
    const prev = this.prevOfObject.data;
    let p = this.lastPositionOf(type, id);
    while (p > at) p = prev[p]!;
    return p;
  }

  /**
   * The object's last change on main (not inside a branch) at or before `at` (0 when none):
   * the event whose version of the object main's read models held at `at`.
   */
  mainPositionAt(type: string, id: number, at: number): number {
    const prev = this.prevOfObject.data;
    const logged = this.logged.data;
    let p = this.lastPositionOf(type, id);
    while (p > at || (p > 0 && logged[p] === BRANCH_CHANGE)) p = prev[p]!;
    return p;
  }

  /** Whether main changed the object after `after` up to `upTo` (a walk down its chain). */
  changedOnMain(type: string, id: number, after: number, upTo: number): boolean {
    const prev = this.prevOfObject.data;
    const logged = this.logged.data;
    for (let p = this.lastPositionOf(type, id); p > after; p = prev[p]!)
      if (p <= upTo && logged[p] !== BRANCH_CHANGE) return true;
    return false;
  }

  /**
   * The fields main's changes of the object in (after, upTo] may have moved (fieldMarks.ts):
   * every field for a create or a delete, 0 when main did not change it then.
   */
  marksOnMain(type: string, id: number, after: number, upTo: number): FieldMarks {
    const prev = this.prevOfObject.data;
    const logged = this.logged.data;
    const marks = this.fieldMarks.data;
    const actions = this.actions.data;
    let out = 0;
    for (let p = this.lastPositionOf(type, id); p > after; p = prev[p]!) {
      if (p > upTo || logged[p] === BRANCH_CHANGE) continue;
      out |= actions[p] === UPDATE ? marks[p]! : ALL_FIELDS;
    }
    return out >>> 0;
  }

  /**
   * The highest id of an object of `type` main created at or before `upTo` (0: none): every
   * object with a higher id did not exist then.
   */
  maxIdCreatedOnMain(type: string, upTo: number): number {
    const code = this.typeDictionary.find(type);
    if (code === undefined) return 0;
    const types = this.types.data;
    const logged = this.logged.data;
    const actions = this.actions.data;
    const ids = this.objectIds.data;
    let max = 0;
    for (let p = Math.min(upTo, this.last); p >= 1; p--) {
      if (types[p] === code && actions[p] === CREATE && logged[p] !== BRANCH_CHANGE && ids[p]! > max) max = ids[p]!;
    }
    return max;
  }

  /**
   * The ids of the objects of `type` main changed in (after, upTo], each once (a scan of the
   * type column: a few milliseconds per million positions); with `fields`, only by events
   * that may have changed one of those fields (fieldMarks.ts; creates and deletes always, even with none).
   */
  objectsChangedOnMain(
    type: string,
    after: number,
    upTo: number,
    maxId = Infinity,
    fields: FieldMarks = ALL_FIELDS,
  ): number[] {
    const code = this.typeDictionary.find(type);
    const last = Math.min(upTo, this.last);
    if (code === undefined || after >= last) return [];
    const types = this.types.data;
    const logged = this.logged.data;
    const ids = this.objectIds.data;
    const marks = this.fieldMarks.data;
    const actions = this.actions.data;
    const seen = new Set<number>();
    for (let p = after + 1; p <= last; p++) {
      if (types[p] !== code || logged[p] === BRANCH_CHANGE || ids[p]! > maxId) continue;
      if ((marks[p]! & fields) !== 0 || actions[p] !== UPDATE) seen.add(ids[p]!);
    }
    return [...seen];
  }

  /** The object types main changed in (after, upTo] (one scan of the type column, for many look-ups after). */
  typesChangedOnMain(after: number, upTo: number): Set<string> {
    const last = Math.min(upTo, this.last);
    const seen = new Uint8Array(this.typeDictionary.size);
    const types = this.types.data;
    const logged = this.logged.data;
    for (let p = after + 1; p <= last; p++) if (logged[p] !== BRANCH_CHANGE) seen[types[p]!] = 1;
    const out = new Set<string>();
    seen.forEach((hit, code) => {
      if (hit) out.add(this.typeDictionary.value(code));
    });
    return out;
  }

  /** The last position that touched the object (0 when none). */
  lastPositionOf(type: string, id: number): number {
    const code = this.typeDictionary.find(type);
    if (code === undefined || !Number.isSafeInteger(id) || id < 1) return 0;
    if (id < ID_SPACE) return this.objectLast.get(code, id);
    return this.bigObjectLast.get(`${code}:${id}`) ?? 0;
  }

  /** Requests whose events revert `requestId`. */
  revertsOf(requestId: string): string[] {
    return [...(this.reverts.get(requestId.toLowerCase()) ?? [])];
  }

  /** The last position whose time, and every earlier one's, is at or before `micros` (0 when none). */
  positionAtTime(micros: number): number {
    // timeMax is non-decreasing: find the last p with timeMax[p] <= micros.
    const max = this.timeMax.data;
    let lo = 1;
    let hi = this.last;
    let found = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (max[mid]! <= micros) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /** The first position whose running maximum time is at or after `micros` (head + 1 when none). */
  firstPositionFrom(micros: number): number {
    return this.firstPositionAbove(micros, false);
  }

  /** The first position whose running maximum time is after `micros` (head + 1 when none). */
  firstPositionAfter(micros: number): number {
    return this.firstPositionAbove(micros, true);
  }

  private firstPositionAbove(micros: number, strict: boolean): number {
    const max = this.timeMax.data;
    let lo = 1;
    let hi = this.last;
    let found = this.last + 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (strict ? max[mid]! > micros : max[mid]! >= micros) {
        found = mid;
        hi = mid - 1;
      } else {
        lo = mid + 1;
      }
    }
    return found;
  }

  private chain(last: number, prev: Float64Array): number[] {
    const out: number[] = [];
    for (let p = last; p > 0; p = prev[p]!) out.push(p);
    return out.reverse();
  }

  /** Whether the event is a change made inside a branch (README: Branches): no part of main's history. */
  isBranchChange(p: number): boolean {
    return this.logged.get(p) === BRANCH_CHANGE;
  }

  /** Whether the event's model is change-logged (listed in object changes). */
  isLogged(p: number): boolean {
    return this.logged.get(p) === 1;
  }

  /** How many change-logged events there are. */
  get loggedCount(): number {
    return this.loggedList.length;
  }

  /** The i-th change-logged position (ascending, 0-based). */
  loggedAt(i: number): number {
    return this.loggedList.get(i);
  }

  /** The number of change-logged positions below `p` (so loggedAt(result) is the first >= p). */
  loggedRank(p: number): number {
    const list = this.loggedList.data;
    let lo = 0;
    let hi = this.loggedList.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]! < p) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  // ------------------------------------------------------------ per position

  timeAt(p: number): number {
    return this.times.get(p);
  }

  actionAt(p: number): ChangeAction {
    return ACTIONS[this.actions.get(p)]!;
  }

  actionCodeAt(p: number): number {
    return this.actions.get(p);
  }

  typeAt(p: number): string {
    return this.typeDictionary.value(this.types.get(p));
  }

  typeCodeAt(p: number): number {
    return this.types.get(p);
  }

  objectIdAt(p: number): number {
    return this.objectIds.get(p);
  }

  /** The acting user's id, or -1. */
  userIdAt(p: number): number {
    return this.userIds.get(p);
  }

  userNameAt(p: number): string {
    return this.userNameDictionary.value(this.userNames.get(p));
  }

  userNameCodeAt(p: number): number {
    return this.userNames.get(p);
  }

  requestIdAt(p: number): string {
    return this.requestIds[this.requests.get(p)]!;
  }

  requestOrdinalAt(p: number): number {
    return this.requests.get(p);
  }

  reprAt(p: number): string {
    return this.reprs.get(p);
  }

  // ------------------------------------------------------------- dictionaries

  /** The code of an object type seen in the log, or undefined. */
  typeCode(type: string): number | undefined {
    return this.typeDictionary.find(type);
  }

  typeCount(): number {
    return this.typeDictionary.size;
  }

  typeOfCode(code: number): string {
    return this.typeDictionary.value(code);
  }

  /** Codes of the user names matching a predicate (the dictionary is small: one entry per user name). */
  userNameCodes(predicate: (name: string) => boolean): Set<number> {
    const codes = new Set<number>();
    for (const [name, code] of this.userNameDictionary.entries()) if (predicate(name)) codes.add(code);
    return codes;
  }

  /** Approximate bytes held by the index (not counting the Map overheads exactly). */
  approximateBytes(): number {
    const perEvent = 8 + 8 + 1 + 2 + 8 + 4 + 4 + 4 + 8 + 8 + 8 + 1 + 8 + 4 + 8;
    return (
      this.last * perEvent +
      this.reprs.byteLength +
      this.requestIds.length * 100 +
      (this.objectLast.size + this.bigObjectLast.size) * 40
    );
  }
}
