import anyTest, { type TestFn } from 'ava';

import type { ModelDefinition } from '../../src/models/modelDefinition.js';
import { registry } from '../../src/models/registry.js';
import { as, grant, userWithToken } from '../support/callers.js';
import { CRUD_SAMPLES } from '../support/crudSamples.js';
import { seedInfrastructure } from '../support/fixtures.js';
import { startService, type TestService } from '../support/startService.js';

/*
 * The registry-wide CRUD check, as NetBox's per-model API test cases: for every model the
 * registry serves for writes, one named test per action (create, read, brief, patch, bulk
 * patch, list, permissions, delete), so a failure names its model and action. One service
 * for the file: models are made in registration order (parents first), each from the
 * objects made before it, and deleted in reverse order, so the tests run serially.
 */

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * Image attachments are made only by a multipart upload (a JSON body carries no file):
 * their create, read, change and delete are covered by imageAttachments.e2e.spec.ts.
 */
const CREATED_BY_UPLOAD = new Set(['extras.imageattachment']);

/** Every change-logged model the registry serves for writes, in registration order (parents first). */
const MODELS = registry
  .all()
  .filter(
    (definition) => definition.changeLogged !== false && !definition.readOnly && !CREATED_BY_UPLOAD.has(definition.key),
  );

interface Context {
  service: TestService;
  /** The object of each model made so far, by model key (and the extra objects samples prepare). */
  made: Record<string, any>;
  /** A caller without any permission, and one allowed to view every model here (and nothing else). */
  stranger: ReturnType<typeof as>;
  viewer: ReturnType<typeof as>;
}

const test = anyTest as TestFn<Context>;

test.before(async (t) => {
  const service = await startService();
  const seeded: Record<string, any> = await seedInfrastructure(service);
  const made: Record<string, any> = {};
  for (const { key } of MODELS) {
    const seededAs = CRUD_SAMPLES[key]?.seeded;
    if (seededAs) made[key] = seeded[seededAs];
  }
  const stranger = await userWithToken(service, 'crud-stranger');
  const viewer = await userWithToken(service, 'crud-viewer');
  await grant(service, { object_types: MODELS.map((d) => d.key), actions: ['view'], users: [viewer.user.id] });
  t.context = { service, made, stranger: as(service, stranger.key), viewer: as(service, viewer.key) };
});
test.after.always(async (t) => {
  await t.context.service?.close();
});

const listPath = ({ app, path }: ModelDefinition) => `/api/${app}/${path}/`;

/** The object the model's create test made (or the seed); none fails the test that needs it. */
function madeOf(context: Context, definition: ModelDefinition): any {
  const made = context.made[definition.key];
  if (!made) throw new Error(`${definition.key}: no object was made (see its create test)`);
  return made;
}

/** The keys of a model's brief form: its brief fields, under their brief names. */
function briefKeys(definition: ModelDefinition): string[] {
  return definition.brief.map((name) => definition.fields.find((f) => f.name === name)?.briefName ?? name).sort();
}

test.serial('the registry serves the models of the first set at least, each with a CRUD sample', (t) => {
  t.true(MODELS.length >= 26, 'the models of the first set at least');
  t.deepEqual(
    MODELS.filter((d) => !CRUD_SAMPLES[d.key]).map((d) => d.key),
    [],
    'a sample in test/support/crudSamples.ts for each',
  );
});

for (const definition of MODELS) {
  const { key } = definition;
  const path = listPath(definition);
  const sample = CRUD_SAMPLES[key];
  if (!sample) continue; // named by the test above
  const [check] = Object.keys(sample.patch);

  test.serial(`${key}: create`, async (t) => {
    const { service, made } = t.context;
    if (sample.prepare) {
      const post = async (at: string, body: unknown) => {
        const response = await service.api('POST', at, body);
        if (response.status !== 201) throw new Error(`${at}: ${response.status} ${JSON.stringify(response.body)}`);
        return response.body;
      };
      Object.assign(made, await sample.prepare(post, made));
    }
    if (!sample.seeded) {
      const response = await service.api('POST', path, sample.create!(made));
      t.is(response.status, 201, `${path} ${JSON.stringify(response.body)}`);
      if (response.status === 201) made[key] = response.body;
    }
    const created = madeOf(t.context, definition);
    t.is(created.url, `${service.url}${path}${created.id}/`, path);
    t.regex(created.created, DATE, `${path} created is a date`);
    t.regex(created.last_updated, DATETIME, `${path} last_updated`);
    t.is(typeof created.display, 'string');
  });

  test.serial(`${key}: read`, async (t) => {
    const created = madeOf(t.context, definition);
    const read = await t.context.service.api('GET', `${path}${created.id}/`);
    t.is(read.status, 200, path);
    t.is(read.body.id, created.id);
  });

  test.serial(`${key}: brief`, async (t) => {
    const { service } = t.context;
    const created = madeOf(t.context, definition);
    const detail = await service.api('GET', `${path}${created.id}/?brief=1`);
    t.is(detail.status, 200, path);
    const listed = await service.api('GET', `${path}?brief=1&id=${created.id}`);
    t.is(listed.status, 200, path);
    t.deepEqual(listed.body.results, [detail.body], 'a brief list renders its objects as the brief detail does');
    if (definition.brief.length === 0) {
      // no brief form (NetBox has no nested serializer): ?brief= is ignored
      t.deepEqual(detail.body, (await service.api('GET', `${path}${created.id}/`)).body);
      return;
    }
    t.deepEqual(Object.keys(detail.body).sort(), briefKeys(definition));
    t.is(detail.body.id, created.id);
  });

  test.serial(`${key}: patch`, async (t) => {
    const created = madeOf(t.context, definition);
    const patched = await t.context.service.api('PATCH', `${path}${created.id}/`, sample.patch);
    t.is(patched.status, 200, `${path} ${JSON.stringify(patched.body)}`);
    t.deepEqual(patched.body[check], sample.patch[check], path);
  });

  test.serial(`${key}: bulk patch`, async (t) => {
    const created = madeOf(t.context, definition);
    const patched = await t.context.service.api('PATCH', path, [{ id: created.id, ...sample.patch }]);
    t.is(patched.status, 200, `${path} ${JSON.stringify(patched.body)}`);
    t.is(patched.body.length, 1);
    t.is(patched.body[0].id, created.id);
    t.deepEqual(patched.body[0][check], sample.patch[check], path);
  });

  test.serial(`${key}: list`, async (t) => {
    madeOf(t.context, definition);
    const listed = await t.context.service.api('GET', path);
    t.is(listed.status, 200, path);
    t.is(listed.body.count, 1, path);
  });

  test.serial(`${key}: permissions`, async (t) => {
    const { service, stranger, viewer } = t.context;
    const created = madeOf(t.context, definition);
    const detail = `${path}${created.id}/`;
    const before = await service.api('GET', detail);
    const count = (await service.api('GET', path)).body.count;
    for (const [method, at, body] of [
      ['GET', path],
      ['GET', detail],
      ['POST', path, sample.create?.(t.context.made) ?? {}],
      ['PATCH', detail, sample.patch],
      ['PATCH', path, [{ id: created.id, ...sample.patch }]],
      ['DELETE', detail],
    ] as const) {
      const response = await stranger(method, at, body);
      t.is(response.status, 403, `${method} ${at} without a permission: ${JSON.stringify(response.body)}`);
    }
    // (a token's use is itself recorded, so the log's head is no measure here)
    t.deepEqual((await service.api('GET', detail)).body, before.body, 'refused writes change nothing');
    t.is((await service.api('GET', path)).body.count, count, 'nor create anything');
    const viewed = await viewer('GET', detail);
    t.is(viewed.status, 200, `${detail} with view: ${JSON.stringify(viewed.body)}`);
    t.is(viewed.body.id, created.id);
    t.is((await viewer('PATCH', detail, sample.patch)).status, 403, 'view alone does not change');
  });
}

for (const definition of [...MODELS].reverse()) {
  const { key } = definition;
  const path = listPath(definition);
  if (!CRUD_SAMPLES[key]) continue;

  test.serial(`${key}: bulk delete is all or none`, async (t) => {
    const { service } = t.context;
    const id = madeOf(t.context, definition).id;
    if ((await service.api('GET', `${path}${id}/`)).status === 404) {
      t.pass('removed by a cascade already');
      return;
    }
    const head = service.services.log.head();
    const refused = await service.api('DELETE', path, [{ id }, { id: 2 ** 40 }]);
    t.is(refused.status, 400, `${path} ${JSON.stringify(refused.body)}`);
    t.deepEqual(refused.body[0], {}, 'the known item is fine');
    t.deepEqual(Object.keys(refused.body[1]), ['id'], 'the unknown item names its id');
    t.is(service.services.log.head(), head, 'nothing is written');
    t.is((await service.api('GET', `${path}${id}/`)).status, 200, 'the known object is still there');
  });

  test.serial(`${key}: delete`, async (t) => {
    const { service } = t.context;
    const id = madeOf(t.context, definition).id;
    const existing = await service.api('GET', `${path}${id}/`);
    if (existing.status === 404) {
      t.pass('removed by a cascade already');
      return;
    }
    const deleted = await service.api('DELETE', `${path}${id}/`);
    t.is(deleted.status, 204, `${path} ${JSON.stringify(deleted.body)}`);
    t.is((await service.api('GET', `${path}${id}/`)).status, 404, path);
  });
}
