import test from 'ava';

import { importProgress } from '../../src/cli/importProgress.js';

function stream(isTTY: boolean) {
  const written: string[] = [];
  return { written, out: { isTTY, write: (text: string) => written.push(text) > 0 } as unknown as NodeJS.WriteStream };
}

test('on a terminal: a bar per model redrawn in place, with counts and an ETA, closed by its total', (t) => {
  const { written, out } = stream(true);
  const progress = importProgress(out);
  progress.reading!('dcim.device', 1000, 4000);
  progress.read!('dcim.device', 4000);
  const text = written.join('');
  t.regex(text, /\rread dcim\.device +\[#+-+\] +25\.0% 1,000\/4,000 ETA \d+ s/);
  t.regex(text, /\rread dcim\.device +\[#{30}\] 100\.0% 4,000 objects in \d+\.\d s\x1b\[K\n$/);
});

test('not on a terminal: one plain line per model and phase', (t) => {
  const { written, out } = stream(false);
  const progress = importProgress(out);
  for (let n = 0; n <= 4000; n += 500) progress.writing!('dcim.device', n, 4000);
  progress.wrote!('dcim.device', 4000);
  progress.phase!('appending 9 events as one batch');
  t.deepEqual(written, ['write dcim.device: 4,000 objects\n', 'appending 9 events as one batch\n']);
});

test("on a terminal, a model finished while another's bar is shown gets a line of its own over that bar", (t) => {
  const { written, out } = stream(true);
  const progress = importProgress(out);
  progress.reading!('dcim.site', 1, 2);
  progress.reading!('dcim.device', 1, 4000);
  progress.read!('dcim.site', 2);
  t.is(written.at(-1), '\rread dcim.site: 2 objects\x1b[K\n');
  progress.read!('dcim.device', 4000);
  t.regex(written.at(-1)!, /^\rread dcim\.device +\[#{30}\] 100\.0% 4,000 objects/);
});
