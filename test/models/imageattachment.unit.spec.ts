import test from 'ava';

import { formInput } from '../../src/api/extras/imageAttachmentRoutes.js';
import { imageattachment } from '../../src/models/extras/imageattachment.js';
import { offerImage, type StoredImage, withdrawImage } from '../../src/models/extras/imageUploads.js';
import type { LookupView } from '../../src/models/lookupView.js';
import type { StoredObject } from '../../src/models/storedObject.js';

const hooks = imageattachment.hooks!;
const NOW = '2026-01-01T00:00:00.000000Z';
const IMAGE: StoredImage = {
  file: `${'ab'.repeat(32)}.png`,
  digest: 'ab'.repeat(32),
  size: 67,
  originalName: 'plan.png',
  height: 2,
  width: 3,
};

test('an offered upload becomes the stored file, its size, original name and dimensions; the token is not kept', (t) => {
  const token = offerImage(IMAGE);
  t.teardown(() => withdrawImage(token));
  const obj: StoredObject = {
    id: 1,
    content_type: 'dcim.site',
    object_id: 1,
    name: '',
    image_upload: token,
    image_height: 999,
  };
  t.is(hooks.normalize!(obj, NOW), undefined);
  t.deepEqual(obj, {
    id: 1,
    content_type: 'dcim.site',
    object_id: 1,
    name: '',
    image_file: IMAGE.file,
    image_original_name: 'plan.png',
    image_size: 67,
    image_height: 2,
    image_width: 3,
  });
});

test('no upload, an unknown or withdrawn token is "No file was submitted."; a change keeps the stored file', (t) => {
  t.deepEqual(hooks.normalize!({ id: 1, image_upload: null }, NOW), { image: ['No file was submitted.'] });
  t.deepEqual(
    hooks.normalize!({ id: 1, image_upload: 'guessed', image_file: IMAGE.file }, NOW),
    { image: ['No file was submitted.'] },
    'a forged token never keeps a file',
  );
  const token = offerImage(IMAGE);
  withdrawImage(token);
  t.deepEqual(hooks.normalize!({ id: 1, image_upload: token }, NOW), { image: ['No file was submitted.'] });
  const previous: StoredObject = { id: 1, name: 'renamed', image_file: IMAGE.file, image_height: 2, image_width: 3 };
  t.is(hooks.normalize!(previous, NOW), undefined, 'a PATCH without a file keeps the stored one');
  t.is(previous.image_file, IMAGE.file);
});

test('an image larger than the dimension columns is refused', (t) => {
  const token = offerImage({ ...IMAGE, width: 40000 });
  t.teardown(() => withdrawImage(token));
  t.deepEqual(hooks.normalize!({ id: 1, image_upload: token }, NOW), {
    image: ['Images larger than 32767 pixels on a side are not accepted.'],
  });
});

test("the display is the name, else the uploaded file's name; image renders as the served URL", async (t) => {
  const view = {} as LookupView;
  t.is(await hooks.display!({ id: 4, name: 'Front', image_original_name: 'x.png' }, view), 'Front');
  t.is(await hooks.display!({ id: 4, name: '', image_original_name: 'x.png' }, view), 'x.png');
  t.is(
    await hooks.compute!.image({ id: 4, image_file: IMAGE.file }, view, 'http://nb'),
    `http://nb/media/image-attachments/${IMAGE.file}`,
  );
});

test("form fields are read as the model's types; a client cannot send the upload token", (t) => {
  t.deepEqual(
    formInput(imageattachment, {
      content_type: 'dcim.site',
      object_id: ' 12 ',
      name: '42',
      image_upload: 'x',
      image: 'y',
    }),
    {
      content_type: 'dcim.site',
      object_id: 12,
      name: '42',
    },
  );
  t.deepEqual(
    formInput(imageattachment, { object_id: 'twelve' }),
    { object_id: 'twelve' },
    'left for the schema to refuse',
  );
});
