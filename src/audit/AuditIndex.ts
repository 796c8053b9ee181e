import type { ChangeAction, ChangeEvent } from '../events/ChangeEvent.js';
import { Column, Dictionary, StringPool } from './columns.js';
import { eventTimeMicros } from './time.js';
import { registry } from '../models/registry.js';

export const ACTIONS: readonly ChangeAction[] = ['create', 'update', 'delete'];
const ACTION_CODE: Record<ChangeAction, number> = { create: 0, update: 1, delete: 2 };

/** Object keys are typeCode * 2^40 + id while ids stay below 2^40 (always, in practice). */
const ID_SPACE = 2 ** 40;

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
  /** 1 when the event's model is change-logged (shown in object changes). */
  private readonly logged = new Column(Uint8Array);
  /** Positions of change-logged events, ascending. */
  private readonly loggedList = new Column(Float64Array);
  private readonly loggedTypes = new Map<number, boolean>();

  private readonly typeDictionary = new Dictionary();
  private readonly userNameDictionary = new Dictionary();
  private readonly requestOrdinals = new Map<string, number>();
  private readonly requestIds: string[] = [];
  private readonly requestLast = new Column(Float64Array);
  private readonly objectLast = new Map<number, number>();
  private readonly bigObjectLast = new Map<string, number>();
  private readonly reverts = new Map<string, string[]>();
  private ordered = true;
  /** The events of one request share their time: parse it once per batch. */
  private lastTimeText = '';
  private lastTimeMicros = 0;

  constructor() {
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
    if (logged === undefined) this.loggedTypes.set(type, (logged = registry.tryGet(event.objectType)?.changeLogged !== false));
    this.logged.push(logged ? 1 : 0);
    if (logged) this.loggedList.push(p);
    this.objectIds.push(event.objectId);
    this.userIds.push(event.user ? event.user.id : -1);
    this.userNames.push(this.userNameDictionary.code(event.user?.username ?? ''));
    this.reprs.push(event.objectRepr);

    const requestId = event.requestId.toLowerCase();
    let ordinal = this.requestOrdinals.get(requestId);
    if (ordinal === undefined) {
      ordinal = this.requestIds.length;
      this.requestIds.push(requestId);
      this.requestOrdinals.set(requestId, ordinal);
      this.requestLast.push(0);
    }
    this.requests.push(ordinal);
    this.prevOfRequest.push(this.requestLast.get(ordinal));
    this.requestLast.set(ordinal, p);

    if (event.objectId < ID_SPACE) {
      const key = type * ID_SPACE + event.objectId;
      this.prevOfObject.push(this.objectLast.get(key) ?? 0);
      this.objectLast.set(key, p);
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

  // ------------------------------------------------------------------ look-ups

  /** Positions of a request's events, ascending (empty when unknown). */
  requestPositions(requestId: string): number[] {
    const ordinal = this.requestOrdinals.get(requestId.toLowerCase());
    if (ordinal === undefined) return [];
    return this.chain(this.requestLast.get(ordinal), this.prevOfRequest.data);
  }

  /** Whether any event carries this request id. */
  hasRequest(requestId: string): boolean {
    return this.requestOrdinals.has(requestId.toLowerCase());
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

  /** The last position that touched the object (0 when none). */
  lastPositionOf(type: string, id: number): number {
    const code = this.typeDictionary.find(type);
    if (code === undefined || !Number.isSafeInteger(id) || id < 1) return 0;
    if (id < ID_SPACE) return this.objectLast.get(code * ID_SPACE + id) ?? 0;
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
    const perEvent = 8 + 8 + 1 + 2 + 8 + 4 + 4 + 4 + 8 + 8 + 8 + 1 + 8;
    return this.last * perEvent + this.reprs.byteLength + this.requestIds.length * 100 + (this.objectLast.size + this.bigObjectLast.size) * 40;
  }
}
