import test from 'ava';

import { foldCase } from '../../src/projections/caseFolding.js';
import { planChanges, splitPlan } from '../../src/projections/mongo/applyPlan.js';
import { useShadowKeys } from '../../src/projections/mongo/shadowKeys.js';
import { exactLiterals, lookupPattern, prefixLiterals, regexCondition } from '../../src/projections/textPatterns.js';
import { seededRandom } from '../support/seededRandom.js';

const ALPHABET = [
  'a',
  'Z',
  '-',
  '#',
  '/',
  '\\',
  '.',
  '*',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '|',
  '^',
  '$',
  '?',
  '+',
  '\n',
  '\u0000',
  '\u017f',
  '\u212a',
  '\u1e9e',
  '\u00df',
  '\u{1f600}',
  ' ',
  'x',
];

test('shadow keys: every exact case-insensitive condition the compiler builds is read back as its literals, whatever the text', (t) => {
  const random = seededRandom(15);
  for (let i = 0; i < 2000; i++) {
    const values = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
      Array.from({ length: Math.floor(random() * 8) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join(''),
    );
    t.deepEqual(exactLiterals(regexCondition('ie', values)), values, JSON.stringify(values));
  }
});

test('shadow keys: every starts-with condition the compiler builds is read back as its literals, whatever the text', (t) => {
  const random = seededRandom(16);
  for (let i = 0; i < 2000; i++) {
    const values = Array.from({ length: 1 + Math.floor(random() * 3) }, () =>
      Array.from({ length: Math.floor(random() * 8) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join(''),
    );
    t.deepEqual(prefixLiterals(regexCondition('isw', values)), values, JSON.stringify(values));
  }
});

test('shadow keys: contains, ends-with, negations and hand-written patterns are left to the regex', (t) => {
  t.is(exactLiterals(regexCondition('ic', ['a'])), null);
  t.is(exactLiterals(regexCondition('isw', ['a'])), null);
  t.is(exactLiterals(regexCondition('iew', ['a'])), null);
  t.is(exactLiterals({ $regex: '^a.b(?![\\s\\S])', $options: 'iu' }), null);
  t.is(exactLiterals({ $regex: '^a\\sb(?![\\s\\S])', $options: 'iu' }), null);
  t.is(exactLiterals({ $regex: '^ab(?![\\s\\S])' }), null, 'case-sensitive');
  for (const lookup of ['ic', 'iew', 'ie'] as const) {
    t.is(prefixLiterals(regexCondition(lookup, ['a'])), null, lookup);
    t.is(prefixLiterals(regexCondition(lookup, ['a', 'b'])), null, `${lookup}, two values`);
  }
  t.is(prefixLiterals({ $regex: '^a.b', $options: 'iu' }), null);
  t.is(prefixLiterals({ $regex: '^ab', $options: 'u' }), null, 'case-sensitive');
  const negated = { name: { $not: regexCondition('ie', ['a']) }, serial: { $not: regexCondition('isw', ['a']) } };
  t.is(useShadowKeys(negated, ['name', 'serial']), negated);
  const contains = { name: regexCondition('ic', ['a']), serial: regexCondition('iew', ['a']) };
  t.is(useShadowKeys(contains, ['name', 'serial']), contains);
});

test('shadow keys: a starts-with match is a case-sensitive prefix regex on the folded key, true of the same texts as the iu regex', (t) => {
  t.deepEqual(useShadowKeys({ name: regexCondition('isw', ['Ab.', '\u017f', 'S']) }, ['name']), {
    '_lc.name': { $regex: '^(?:ab\\.|s)' },
  });
  t.deepEqual(useShadowKeys({ name: regexCondition('isw', ['\u212a']) }, ['name']), { '_lc.name': { $regex: '^k' } });
  // Texts and prefixes of the characters folding joins or keeps apart, compared both ways.
  const letters = [
    's',
    'S',
    '\u017f',
    'k',
    'K',
    '\u212a',
    '\u00df',
    '\u1e9e',
    'ss',
    '\u1fd3',
    '\u0390',
    '\ufb05',
    '\ufb06',
    '\u03c3',
    '\u03c2',
    '\u03a3',
    '\u{10400}',
    '\u{10428}',
    '.',
    '\n',
    'x',
  ];
  const random = seededRandom(17);
  const text = (n: number) => Array.from({ length: n }, () => letters[Math.floor(random() * letters.length)]).join('');
  let matched = 0;
  for (let i = 0; i < 20_000; i++) {
    const [value, prefix] = [text(Math.floor(random() * 5)), text(Math.floor(random() * 3))];
    const byRegex = new RegExp(lookupPattern('isw', [prefix]), 'iu').test(value);
    const shadow = useShadowKeys({ name: regexCondition('isw', [prefix]) }, ['name'])['_lc.name'] as { $regex: string };
    t.is(new RegExp(shadow.$regex).test(foldCase(value)), byRegex, JSON.stringify([value, prefix]));
    if (byRegex) matched++;
  }
  t.true(matched > 1000, `${matched} matches among the samples`);
});

test('shadow keys: only shadowed fields are rewritten, inside $and/$or too; the query given is not changed', (t) => {
  const query = {
    name: regexCondition('ie', ['A', '\u017f']),
    serial: regexCondition('ie', ['X']),
    $or: [{ name: regexCondition('ie', ['K']) }, { site: 1 }],
  };
  const before = JSON.stringify(query);
  t.deepEqual(useShadowKeys(query, ['name']), {
    '_lc.name': { $in: ['a', 's'] },
    serial: regexCondition('ie', ['X']),
    $or: [{ '_lc.name': 'k' }, { site: 1 }],
  });
  t.is(JSON.stringify(query), before);
});

test('case folding: the pairs JavaScript keeps apart without the u flag fold alike; nothing changes length', (t) => {
  t.is(foldCase('\u017fTAR'), foldCase('star'));
  t.is(foldCase('\u212aELVIN'), foldCase('kelvin'));
  t.is(foldCase('STRA\u1e9eE'), foldCase('stra\u00dfe'));
  t.not(foldCase('stra\u00dfe'), foldCase('strasse'));
  t.is(foldCase('\u0130'), '\u0130', 'no simple folding: kept');
});

test('case folding: characters the iu regexes take for one another without being upper and lower case fold alike too', (t) => {
  for (const [a, b] of [
    ['\u1fd3', '\u0390'],
    ['\u1fe3', '\u03b0'],
    ['\ufb05', '\ufb06'],
  ]) {
    t.true(new RegExp(`^${a}$`, 'iu').test(b!), 'the regexes join them');
    t.is(foldCase(`x${a}y`), foldCase(`X${b}Y`), `${a} and ${b}`);
  }
});

test("case folding is the iu regexes' equality, character by character, over the whole BMP", (t) => {
  const escape = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  const byFold = new Map<string, string[]>();
  for (let cp = 0; cp <= 0xffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCharCode(cp);
    const folded = foldCase(c);
    if (folded.length !== c.length) t.fail(`${cp.toString(16)} changes length`);
    if (!new RegExp(`^${escape(c)}$`, 'iu').test(folded)) t.fail(`${cp.toString(16)} folds out of its class`);
    const members = byFold.get(folded);
    if (members) members.push(c);
    else byFold.set(folded, [c]);
  }
  // Characters folding alike are equal to the regexes (the other way round is the next test).
  for (const members of byFold.values()) {
    for (const c of members.slice(1))
      if (!new RegExp(`^${escape(members[0]!)}$`, 'iu').test(c)) t.fail(`${members[0]} and ${c} fold alike but differ`);
  }
  t.pass();
});

test('case folding: characters the iu regexes take for one another fold alike, over every code point (candidates through their case mappings)', (t) => {
  const escape = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  // Characters the regexes join are related through their upper or lower case (a character with
  // neither is alone in its class): folded forms meeting at one of those are compared.
  const byMapping = new Map<string, Set<string>>();
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCodePoint(cp);
    const [upper, lower] = [c.toUpperCase(), c.toLowerCase()];
    if (upper === c && lower === c) continue;
    const folded = foldCase(c);
    for (const key of [c, upper, lower, upper.toLowerCase(), lower.toUpperCase()]) {
      const forms = byMapping.get(key);
      if (forms) forms.add(folded);
      else byMapping.set(key, new Set([folded]));
    }
  }
  for (const forms of byMapping.values()) {
    const list = [...forms];
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        if (new RegExp(`^${escape(list[i]!)}$`, 'iu').test(list[j]!))
          t.fail(`${list[i]} and ${list[j]}: one class, folded apart`);
      }
    }
  }
  t.pass();
});

test('apply plan: a batch split for transactions keeps every document once and the highest ids in the first part', (t) => {
  const changes = Array.from({ length: 25 }, (_, i) => ({
    collection: i % 2 ? 'a' : 'b',
    id: i + 1,
    position: i + 1,
    doc: null,
  }));
  changes.push({ collection: 'a', id: 2, position: 30, doc: { id: 2, _pos: 30 } as never });
  const parts = splitPlan(planChanges(changes), 10);
  t.deepEqual(
    parts.map((p) => [...p.latest.values()].reduce((n, m) => n + m.size, 0)),
    [10, 10, 5],
  );
  t.deepEqual([...parts[0]!.maxIds], [['a', 2]]);
  t.true(parts.slice(1).every((p) => p.maxIds.size === 0));
  t.is(parts.flatMap((p) => [...(p.latest.get('a')?.values() ?? [])]).find((c) => c.id === 2)?.position, 30);
});
