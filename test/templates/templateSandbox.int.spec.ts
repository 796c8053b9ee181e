import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import test from 'ava';

import { TemplateError, TemplateLimitError } from '../../src/templates/TemplateError.js';
import { EXHAUSTION, injectionCorpus } from '../support/injectionCorpus.js';
import { templatePool } from '../support/templates.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'template-canary-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const canary = path.join(dir, 'canary');
const pool = templatePool({ timeoutMs: 1500, memoryMb: 64, workers: 2, queue: 100 });
const context = { data: { name: 'site-1', tags: ['a'] }, queryset: [{ name: 'x' }] };
process.env.NETLEDGER_TEMPLATE_CANARY = 'canary-value-that-no-template-may-read';

for (const [name, code] of Object.entries(injectionCorpus(canary))) {
  test(`injection: ${name} renders harmlessly or is refused, and reaches nothing outside`, async (t) => {
    let output = '';
    try {
      [output] = await pool.render({ templates: [{ name, code }], context, querysets: ['queryset'] });
    } catch (error) {
      t.true(error instanceof TemplateError, String(error));
      t.is((error as TemplateError).template, name, 'the error names the template');
      output = (error as Error).message;
    }
    t.false(existsSync(canary), 'the canary file is untouched');
    t.notRegex(output!, /ESCAPED|canary-value|\[native code\]|process/);
  });
}

for (const [name, code] of Object.entries(EXHAUSTION)) {
  test(`exhaustion: ${name} is stopped at a limit, and the pool renders again afterwards`, async (t) => {
    const error = await t.throwsAsync(pool.render({ templates: [{ name, code }], context: {} }));
    t.true(error instanceof TemplateError, String(error));
    t.log(error!.constructor.name, error!.message);
    t.deepEqual(await pool.render({ templates: [{ name: 'after', code: '{{ 6 * 7 }}' }], context: {} }), ['42']);
  });
}

test('a render past the time limit is a TemplateLimitError that says the limit', async (t) => {
  const error = await t.throwsAsync(
    pool.render({ templates: [{ name: 'spin', code: EXHAUSTION['nested n² loop']! }], context: {} }),
  );
  t.true(error instanceof TemplateLimitError);
  t.regex(error!.message, /time limit \(1500 ms\)/);
});

test('the event loop is free while a template runs: other work goes on before the render ends', async (t) => {
  let finished = false;
  const render = pool
    .render({ templates: [{ name: 'spin', code: EXHAUSTION['nested n² loop']! }], context: {} })
    .catch(() => null)
    .finally(() => (finished = true));
  let turns = 0;
  while (!finished && turns < 5) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    turns += 1;
  }
  t.is(turns, 5, 'five timer turns passed while the render was still running');
  t.false(finished);
  await render;
});

test('syntax and runtime errors name the template and the line (counted from 1, as Jinja2 does)', async (t) => {
  const syntax = await t.throwsAsync(
    pool.render({ templates: [{ name: 'csv', code: 'a\n{% for x in %}' }], context: {} }),
  );
  t.is(syntax!.message, 'line 2, column 13: unexpected token: %}');
  t.is((syntax as TemplateError).template, 'csv');
  const runtime = await t.throwsAsync(
    pool.render({ templates: [{ name: 'body', code: 'a\nb {{ x.y.z() }}' }], context: {} }),
  );
  t.regex(runtime!.message, /^line 2, column \d+: Unable to call `x\["y"\]\["z"\]`/);
});

test('ordinary templates render as Jinja2 does: loops, filters, dict methods, slices, tojson, queryset.all()', async (t) => {
  const [output] = await pool.render({
    templates: [
      {
        name: 'ok',
        code: '{% for s in queryset.all() %}{{ s.name|upper }};{% endfor %}{{ data.items()|list|length }} {{ data.tags[0:1]|join(",") }} {{ data|tojson }} {{ True }}{{ None }}',
      },
    ],
    context,
    querysets: ['queryset'],
  });
  t.is(output, 'X;2 a {"name":"site-1","tags":["a"]} true');
});

test('a sandbox leaves nothing behind for the next render', async (t) => {
  await pool.render({
    templates: [{ name: 'a', code: '{% set l = range(3) %}{{ l.push(9) }}{{ range.x }}' }],
    context: {},
  });
  t.deepEqual(await pool.render({ templates: [{ name: 'b', code: '{{ range(3)|join(",") }}' }], context: {} }), [
    '0,1,2',
  ]);
});

const small = templatePool({ outputMb: 1, memoryMb: 128 });
test('output past the limit is stopped as a limit, not sent back', async (t) => {
  const error = await t.throwsAsync(
    small.render({
      templates: [
        { name: 'big', code: '{% set s = "x" %}{% for i in range(21) %}{% set s = s + s %}{% endfor %}{{ s }}' },
      ],
      context: {},
    }),
  );
  t.true(error instanceof TemplateLimitError);
  t.is(error!.message, 'its output is larger than the limit (1 MB)');
});

test('a renderer killed while rendering one of several templates: the error names the template that reached the limit', async (t) => {
  const error = await t.throwsAsync(
    pool.render({
      templates: [
        { name: 'payload_url', code: 'http://example.com/' },
        { name: 'body_template', code: EXHAUSTION['arrays of arrays']! },
      ],
      context: {},
    }),
  );
  t.true(error instanceof TemplateLimitError, String(error));
  t.is((error as TemplateError).template, 'body_template');
  t.regex(error!.message, /memory limit \(64 MB\)|time limit/);
});

test('a job stopped at its time limit names the template that was running, not the last compiled', async (t) => {
  const error = await t.throwsAsync(
    pool.render({
      templates: [
        { name: 'additional_headers', code: EXHAUSTION['nested n² loop']! },
        { name: 'body_template', code: '{{ 1 }}' },
      ],
      context: {},
    }),
  );
  t.true(error instanceof TemplateLimitError, String(error));
  t.is((error as TemplateError).template, 'additional_headers');
});
