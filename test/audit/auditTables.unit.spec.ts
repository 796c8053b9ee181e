/**
 * The audit index's look-up tables (request id → ordinal, object → last position) answer as
 * the Maps they replace, whatever the order and spread of what they hold, and load back.
 */
import test from 'ava';

import { ID_SPACE, ObjectLastTable } from '../../src/audit/objectLastTable.js';
import { StringTable } from '../../src/audit/stringTable.js';
import { seededRandom } from '../support/seededRandom.js';

for (const seed of [1, 2, 3]) {
  test(`a StringTable numbers strings as a Map would (seed ${seed})`, (t) => {
    const random = seededRandom(seed);
    const table = new StringTable();
    const model = new Map<string, number>();
    const wrong: unknown[] = []; // one assertion at the end: thousands of t.is would take seconds
    // Few distinct strings (many repeats), some long, some not ASCII, some prefixes of others.
    const word = () => ['a', 'ab', 'é', '\u{1f600}', '', 'x'.repeat(40)][Math.floor(random() * 6)]!;
    for (let i = 0; i < 20_000; i++) {
      const value = `${word()}${Math.floor(random() * 5000)}${word()}`;
      const found = table.find(value);
      if (found !== model.get(value)) wrong.push(['find', value, found]);
      if (found === undefined) {
        const ordinal = table.add(value);
        if (ordinal !== model.size) wrong.push(['add', value, ordinal]);
        model.set(value, ordinal);
      }
    }
    t.is(table.size, model.size);
    const loaded = new StringTable();
    loaded.load([...model.keys()]);
    for (const [value, ordinal] of model) if (loaded.find(value) !== ordinal) wrong.push(['loaded', value]);
    t.deepEqual(wrong, []);
    t.is(loaded.find('never added'), undefined);
    t.is(loaded.add('never added'), model.size);
  });
}

test('a StringTable refuses to load repeated strings', (t) => {
  t.throws(() => new StringTable().load(['a', 'b', 'a']), { instanceOf: RangeError });
});

test('a StringTable adopts its slots image and goes on as the original', (t) => {
  const original = new StringTable();
  for (let i = 0; i < 3000; i++) original.add(`request-${i}`);
  const adopted = new StringTable();
  adopted.adopt([...original.values], original.slotsImage());
  t.deepEqual(
    Array.from({ length: 3100 }, (_, i) => adopted.find(`request-${i}`)),
    Array.from({ length: 3100 }, (_, i) => (i < 3000 ? i : undefined)),
  );
  for (let i = 3000; i < 6000; i++) t.is(adopted.add(`request-${i}`), i); // grows past the adopted slots
  t.is(adopted.find('request-5999'), 5999);
  t.is(adopted.find('request-7'), 7);
  // Slots that do not hold each ordinal once are refused.
  const slots = original.slotsImage();
  const first = slots.findIndex((held) => held !== 0);
  slots[first] = 0;
  t.throws(() => new StringTable().adopt([...original.values], slots), { instanceOf: RangeError });
  t.throws(() => new StringTable().adopt(['a'], new Int32Array(1000)), { instanceOf: RangeError });
});

for (const seed of [4, 5, 6]) {
  test(`an ObjectLastTable answers as a Map would, dense, sparse and huge ids mixed (seed ${seed})`, (t) => {
    const random = seededRandom(seed);
    const table = new ObjectLastTable();
    const model = new Map<number, number>();
    const wrong: unknown[] = [];
    const idOf = () => {
      const roll = random();
      if (roll < 0.6) return 1 + Math.floor(random() * 3000); // handed out in turn: dense
      if (roll < 0.8) return 1 + Math.floor(random() * 2_000_000); // spread thin: the Map beside
      return ID_SPACE - 1 - Math.floor(random() * 100); // at the top of the id space
    };
    for (let position = 1; position <= 30_000; position++) {
      const type = Math.floor(random() * 4);
      const id = idOf();
      const key = type * ID_SPACE + id;
      if (table.get(type, id) !== (model.get(key) ?? 0)) wrong.push(['get', type, id]);
      table.set(type, id, position);
      model.set(key, position);
    }
    t.is(table.size, model.size);
    const { keys, lasts } = table.entries();
    t.is(keys.length, model.size);
    keys.forEach((key, i) => {
      if (model.get(key) !== lasts[i]) wrong.push(['entry', key, lasts[i]]);
    });
    // Loaded from its own entries, and from the Map's order (an older snapshot's).
    for (const [fromKeys, fromLasts] of [
      [keys, lasts],
      [Float64Array.from(model.keys()), Float64Array.from(model.values())],
    ] as const) {
      const loaded = new ObjectLastTable();
      loaded.load(fromKeys, fromLasts);
      t.is(loaded.size, model.size);
      for (const [key, last] of model) {
        const type = Math.floor(key / ID_SPACE);
        if (loaded.get(type, key - type * ID_SPACE) !== last) wrong.push(['loaded', key]);
      }
      t.is(loaded.get(9, 5), 0);
    }
    t.deepEqual(wrong, []);
  });
}
