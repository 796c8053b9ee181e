import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { imageDirectory, removeImageFile, storeImageFile } from '../../src/api/extras/imageFiles.js';
import { tinyPng } from '../support/tinyImages.js';

test('an upload of the same bytes during a deletion waits for it, then stores the file afresh', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'netledger-media-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const png = tinyPng(1, 1);
  const file = await storeImageFile(dataDir, png, 'png', 'things', (stored) => stored.file);
  const target = path.join(imageDirectory(dataDir, 'things'), file);
  let upload: Promise<string> | undefined;
  // The deletion has decided that nothing names the file when the same bytes arrive again.
  const removed = await removeImageFile(dataDir, 'things', file, async () => {
    upload = storeImageFile(dataDir, png, 'png', 'things', (stored) => stored.file);
    // the time the upload's own look for the file would take, were it not held back
    await new Promise((resolve) => setTimeout(resolve, 20));
    return false;
  });
  t.true(removed);
  t.is(await upload, file);
  t.true(existsSync(target), 'the new upload names a file that is there');
});

test('only stored file names are deleted, and a file something names is kept', async (t) => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'netledger-media-'));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const file = await storeImageFile(dataDir, tinyPng(2, 1), 'png', 'things', (stored) => stored.file);
  t.false(await removeImageFile(dataDir, 'things', file, async () => true));
  t.true(existsSync(path.join(imageDirectory(dataDir, 'things'), file)));
  t.false(await removeImageFile(dataDir, 'things', '../../events.log', async () => false));
  t.false(await removeImageFile(dataDir, 'things', `${'0'.repeat(64)}.png`, async () => false), 'absent already');
});
