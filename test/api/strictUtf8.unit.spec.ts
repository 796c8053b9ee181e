import test from 'ava';

import { decodeUtf8, hasLoneSurrogate, percentEncodingIsUtf8 } from '../../src/api/middleware/strictUtf8.js';

test('decodeUtf8 returns the text of well-formed UTF-8 and null for anything else', (t) => {
  t.is(decodeUtf8(Buffer.from('café ☃ 𝄞', 'utf8')), 'café ☃ 𝄞');
  t.is(decodeUtf8(Buffer.alloc(0)), '');
  for (const bytes of [
    [0xe9],
    [0xff],
    [0xc3],
    [0xe2, 0x82],
    [0xed, 0xa0, 0x80],
    [0xc0, 0xaf],
    [0xf4, 0x90, 0x80, 0x80],
  ]) {
    t.is(decodeUtf8(Buffer.from(bytes)), null, Buffer.from(bytes).toString('hex'));
  }
});

test('decodeUtf8 keeps a byte-order mark (so JSON.parse refuses it, as before)', (t) => {
  t.is(decodeUtf8(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])), '\uFEFF{}');
});

test('percentEncodingIsUtf8 checks each run of escapes as UTF-8 bytes; a stray % is literal', (t) => {
  for (const ok of ['', 'a=b', 'name=caf%C3%A9', 'x=%E2%98%83&y=%F0%9D%84%9E', 'q=100%', 'q=%zz', 'q=%', 'a=%41%42'])
    t.true(percentEncodingIsUtf8(ok), ok);
  for (const bad of ['name=caf%E9', '%FF', 'q=%E2%82', 'q=%E2%82x', 's=%ED%A0%80', 'a=ok&b=%C0%AF'])
    t.false(percentEncodingIsUtf8(bad), bad);
});

test('hasLoneSurrogate finds an unpaired surrogate in any string or key, not a pair', (t) => {
  t.false(hasLoneSurrogate({ a: ['𝄞', { b: 'x' }], c: 1, d: null }));
  t.true(hasLoneSurrogate('a\ud800'));
  t.true(hasLoneSurrogate('\udc00b'));
  t.true(hasLoneSurrogate([1, ['x', '\ud83d']]));
  t.true(hasLoneSurrogate({ '\udfff': 1 }));
});
