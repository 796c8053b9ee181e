import test from 'ava';

import { formFields } from '../../src/api/extras/imageFieldRoutes.js';
import { devicetype } from '../../src/models/dcim/devicetype.js';
import { offerImage, withdrawImage } from '../../src/models/extras/imageUploads.js';
import { hasImage, imageField, imageUrl, normalizeImageFields, NOT_A_FILE } from '../../src/models/imageFields.js';

const fields = imageField('front_image', 'devicetype-images').filter((f) => f.image);
const digest = 'ab'.repeat(32);
const upload = { file: `${digest}.png`, digest, size: 123, originalName: 'f.png', height: 2, width: 3 };

test('an offered upload becomes the stored file, its digest and size; the token is not kept', (t) => {
  const token = offerImage(upload);
  t.teardown(() => withdrawImage(token));
  const obj: Record<string, unknown> & { id: number } = { id: 1, front_image: token };
  t.is(normalizeImageFields(fields, obj), undefined);
  t.deepEqual(obj, { id: 1, front_image: `${digest}.png`, front_image_digest: digest, front_image_size: 123 });
});

test('null or "" clears the image; the value the object holds is kept; anything else is not a file', (t) => {
  for (const value of [null, '', undefined]) {
    const obj = { id: 1, front_image: value, front_image_digest: digest, front_image_size: 5 };
    t.is(normalizeImageFields(fields, obj), undefined);
    t.deepEqual(obj, { id: 1, front_image: null, front_image_digest: null, front_image_size: null });
  }
  const kept = { id: 1, front_image: `${digest}.png`, front_image_digest: digest, front_image_size: 5 };
  t.is(normalizeImageFields(fields, kept), undefined);
  t.is(kept.front_image, `${digest}.png`);
  for (const forged of [`${'cd'.repeat(32)}.png`, `${digest}.png/../x`, 'http://x/y.png', 'withdrawn-token']) {
    t.deepEqual(
      normalizeImageFields(fields, { id: 1, front_image: forged, front_image_digest: digest }),
      { front_image: [NOT_A_FILE] },
      forged,
    );
  }
  t.deepEqual(
    normalizeImageFields(fields, { id: 1, front_image: `${digest}.png` }),
    { front_image: [NOT_A_FILE] },
    'on create no file is held',
  );
  const token = offerImage(upload);
  withdrawImage(token);
  t.deepEqual(
    normalizeImageFields(fields, { id: 1, front_image: token }),
    { front_image: [NOT_A_FILE] },
    'a withdrawn token names nothing',
  );
});

test('an image renders as its absolute URL under its media directory; has_ filters on the stored name', async (t) => {
  t.is(imageUrl(fields[0], `${digest}.png`, 'http://nb'), `http://nb/media/devicetype-images/${digest}.png`);
  t.is(imageUrl(fields[0], null, 'http://nb'), null);
  const spec = hasImage('front_image');
  if (!spec || spec.kind !== 'method') return t.fail();
  t.deepEqual(await spec.method([true], {} as never), { front_image: { $nin: [null, ''] } });
  t.deepEqual(await spec.method([false], {} as never), { front_image: { $in: [null, ''] } });
});

test('form fields are read as the model\'s types: ids, decimals, booleans, "" as a cleared image', (t) => {
  t.deepEqual(
    formFields(devicetype, {
      manufacturer: ' 3 ',
      u_height: '1.5',
      is_full_depth: 'False',
      weight: '',
      front_image: '',
      model: '12',
    }),
    {
      manufacturer: 3,
      u_height: 1.5,
      is_full_depth: false,
      weight: null,
      front_image: null,
      model: '12',
    },
  );
});
