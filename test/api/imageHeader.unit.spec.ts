import test from 'ava';

import { readImageHeader } from '../../src/api/extras/imageHeader.js';
import { gifHeader, jpegHeader, tinyPng } from '../support/tinyImages.js';

test('a PNG reads as png with the width and height of its IHDR chunk', (t) => {
  t.deepEqual(readImageHeader(tinyPng(3, 2)), { format: 'png', contentType: 'image/png', width: 3, height: 2 });
});

test('a GIF reads its little-endian logical screen size', (t) => {
  t.deepEqual(readImageHeader(gifHeader(640, 480)), {
    format: 'gif',
    contentType: 'image/gif',
    width: 640,
    height: 480,
  });
});

test('a JPEG reads the size of its frame header after the segments before it', (t) => {
  t.deepEqual(readImageHeader(jpegHeader(1024, 768)), {
    format: 'jpeg',
    contentType: 'image/jpeg',
    width: 1024,
    height: 768,
  });
  // a progressive frame (SOF2) holds the size the same way
  t.deepEqual(readImageHeader(jpegHeader(16, 9, 0xc2)), {
    format: 'jpeg',
    contentType: 'image/jpeg',
    width: 16,
    height: 9,
  });
  // DHT (0xc4) is no frame header: skipped, not read as a size
  const withTable = Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xc4, 0x00, 0x04, 0x00, 0x00]),
    jpegHeader(5, 7).subarray(2),
  ]);
  t.deepEqual(readImageHeader(withTable), { format: 'jpeg', contentType: 'image/jpeg', width: 5, height: 7 });
});

test('anything else, a header cut short or a zero size is no image', (t) => {
  t.is(readImageHeader(Buffer.from('not an image at all')), null);
  t.is(readImageHeader(Buffer.alloc(0)), null);
  t.is(readImageHeader(Buffer.from('BM\x00\x00\x00\x00', 'latin1')), null, 'BMP is not accepted');
  t.is(readImageHeader(tinyPng(3, 2).subarray(0, 20)), null, 'PNG cut inside IHDR');
  t.is(readImageHeader(jpegHeader(10, 10).subarray(0, 24)), null, 'JPEG cut inside the frame header');
  t.is(readImageHeader(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02])), null, 'JPEG scan before any frame');
  t.is(readImageHeader(gifHeader(0, 10)), null);
  const corrupt = tinyPng(3, 2);
  corrupt.write('XXXX', 12, 'latin1');
  t.is(readImageHeader(corrupt), null, 'PNG whose first chunk is not IHDR');
});
