import test from 'ava';

import { ValidationError } from '../../src/errors/requestErrors.js';
import { carriedFileFields, carryFiles, type ImageStore, MissingMediaError } from '../../src/migration/carryFiles.js';
import { type MediaReader, MediaUnreadableError } from '../../src/migration/mediaReaders.js';
import { registry } from '../../src/models/registry.js';

const attachments = registry.get('extras.imageattachment');
const deviceTypes = registry.get('dcim.devicetype');

/** A source whose media answers the URLs it holds, and a store that records what it was given. */
function fixture(served: Record<string, string>) {
  const reader: MediaReader = {
    read: async (url) => {
      if (!(url in served)) throw new MediaUnreadableError(`GET ${url}: 404`);
      return Buffer.from(served[url]);
    },
  };
  const offers: Array<{ bytes: string; directory: string; filename: string }> = [];
  const releases: Array<{ tokens: string[]; failure: unknown }> = [];
  const store: ImageStore = {
    maxBytes: 1000,
    offer: async (bytes, directory, filename) => {
      if (bytes.toString() === 'not an image') throw new ValidationError({ image: ['Upload a valid image.'] });
      offers.push({ bytes: bytes.toString(), directory, filename });
      return `token-${offers.length}`;
    },
    release: async (offered, failure) => void releases.push({ tokens: offered.map((o) => o.token), failure }),
  };
  return { reader, store, offers, releases };
}

const objects = new Map([
  [
    attachments,
    [
      { id: 1, name: 'kept', display: 'kept', image: 'http://nb/media/image-attachments/a.png' },
      { id: 2, name: 'lost', display: 'lost', image: '/media/image-attachments/b.png' },
      { id: 3, name: '', display: 'floor plan.png', image: 'http://nb/media/image-attachments/c.png' },
    ],
  ],
  [deviceTypes, [{ id: 7, front_image: 'http://nb/media/devicetype-images/f.png', rear_image: null }]],
]);
const served = {
  'http://nb/media/image-attachments/a.png': 'A',
  'http://nb/media/image-attachments/c.png': 'C',
  'http://nb/media/devicetype-images/f.png': 'not an image',
};

test('the fields naming files come from the registry: image fields, and the file an image attachment is', (t) => {
  t.deepEqual(carriedFileFields(deviceTypes), [
    { shownIn: 'front_image', uploadIn: 'front_image', directory: 'devicetype-images', objectIsFile: false },
    { shownIn: 'rear_image', uploadIn: 'rear_image', directory: 'devicetype-images', objectIsFile: false },
  ]);
  t.deepEqual(carriedFileFields(attachments), [
    { shownIn: 'image', uploadIn: 'image_upload', directory: 'image-attachments', objectIsFile: true },
  ]);
  t.deepEqual(carriedFileFields(registry.get('dcim.site')), []);
});

test('a file that cannot be read or is not an image refuses the import, listing them; the files stored are released as failed', async (t) => {
  const { reader, store, offers, releases } = fixture(served);
  const error = await t.throwsAsync(carryFiles(objects, { reader, store }), { instanceOf: MissingMediaError });
  t.deepEqual(error!.files, [
    'dcim.devicetype 7 front_image (http://nb/media/devicetype-images/f.png): Upload a valid image.',
    'extras.imageattachment 2 image (/media/image-attachments/b.png): GET /media/image-attachments/b.png: 404',
  ]);
  t.regex(error!.message, /2 media file\(s\) cannot be carried \(nothing was written/);
  t.is(offers.length, 2);
  t.deepEqual(
    releases.map((r) => r.tokens.sort()),
    [['token-1', 'token-2']],
  );
  t.true(releases[0].failure instanceof MissingMediaError, 'released as a failed write: the stored files are deleted');
});

test('--skip-missing-media: an image field comes empty, an object that is a file is left out, both reported', async (t) => {
  const { reader, store, offers, releases } = fixture(served);
  const carried = await carryFiles(objects, { reader, store, skipMissing: true });
  t.is(carried.skipped.length, 2);
  t.deepEqual([...carried.leftOut], [['extras.imageattachment', new Set([2])]]);
  t.false(carried.inputs.has('dcim.devicetype'), 'the device type is written without its image');
  const tokens = carried.inputs.get('extras.imageattachment')!;
  t.deepEqual([...tokens.keys()].sort(), [1, 3], 'the attachments whose files were stored name them by upload token');
  t.true(String(tokens.get(1)!.image_upload).startsWith('token-'));
  // The unnamed attachment's file keeps the name its display shows.
  t.deepEqual(offers.map((o) => o.filename).sort(), ['a.png', 'floor plan.png']);
  t.deepEqual(
    offers.map((o) => o.directory),
    ['image-attachments', 'image-attachments'],
  );
  t.deepEqual(releases, [], 'released only once the write is over');
});

test('an object that is a file but shows none cannot be carried', async (t) => {
  const { reader, store } = fixture({});
  const error = await t.throwsAsync(
    carryFiles(new Map([[attachments, [{ id: 4, name: 'x', image: null }]]]), { reader, store }),
    { instanceOf: MissingMediaError },
  );
  t.deepEqual(error!.files, ['extras.imageattachment 4 image: the source shows no file']);
});
