/**
 * /graphql/ under randomized input (seeded, so a failure replays from its seed): garbage
 * bodies, token soup, mangled valid queries and random walks over the derived schema, sent by
 * a caller who may view one site only. Every answer is a client error or a result, never a
 * 500 nor an error logged; a refused request carries GraphQL `errors` and no `data`; and nothing the caller may not
 * view appears in any answer, whatever the query reached.
 */
import test from 'ava';
import {
  getNamedType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  isListType,
  isObjectType,
  isUnionType,
} from 'graphql';

import { buildSchema } from '../../src/api/graphql/schema.js';
import { registry } from '../../src/models/registry.js';
import { grant, ok, userWithToken } from '../support/callers.js';
import { seededRandom } from '../support/seededRandom.js';
import { startService } from '../support/startService.js';

const SEED = Number(process.env.FUZZ_SEED ?? 3232);
const ROUNDS = 120; // of each of the four kinds below (and a deep one every tenth round)
const SECRET = 'Hidden'; // in every name the caller may not view

const schema = buildSchema(registry);
const queryFields = Object.values(schema.getQueryType()!.getFields());

const TOKENS = [
  '{', '}', '(', ')', '[', ']', ':', '$', '!', '...', '@', '=', '|', '&', ',', '"x"', '"DC"', '1', '-1', '1.5',
  '99999999999', 'true', 'null', 'query', 'fragment', 'on', 'mutation', 'subscription', 'site_list', 'site',
  'device_list', 'device', 'name', 'id', 'devices', 'interfaces', 'ip_addresses', 'tags', 'custom_fields',
  'assigned_object', '__typename', '__schema', '__type', 'types', 'fields', 'SiteType', 'DeviceType', 'limit',
  'name__ic', 'status', '#c\n', '"\\u0000"', '"""b"""', '$v', 'skip', 'include', 'if', '\u00e9', '\ud83d\ude00',
]; // prettier-ignore

test('garbage, mangled and random queries: never a 500, no data on a refusal, nothing hidden shown', async (t) => {
  t.timeout(240_000);
  const errorsLogged: unknown[] = [];
  const service = await startService({}, undefined, {
    logger: (entry) => {
      if (entry.level === 'error') errorsLogged.push(entry);
    },
  });
  t.teardown(() => service.close());
  const post = (path: string, body: unknown) => ok(service.api('POST', path, body));
  const visible = await post('/api/dcim/sites/', { name: 'Visible', slug: 'visible' });
  const hidden = await post('/api/dcim/sites/', { name: `${SECRET} site`, slug: 'hidden' });
  const manufacturer = await post('/api/dcim/manufacturers/', { name: `${SECRET} maker`, slug: 'maker' });
  const deviceType = await post('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'M', slug: 'm' });
  const role = await post('/api/dcim/device-roles/', { name: `${SECRET} role`, slug: 'role' });
  for (const site of [visible, hidden]) {
    const device = await post('/api/dcim/devices/', {
      name: `${SECRET} device ${site.id}`,
      device_type: deviceType.id,
      device_role: role.id,
      site: site.id,
    });
    await post('/api/dcim/interfaces/', { device: device.id, name: `${SECRET} if`, type: 'virtual' });
  }
  const viewer = await userWithToken(service, 'fuzzed');
  await grant(service, {
    object_types: ['dcim.site'],
    actions: ['view'],
    users: [viewer.user.id],
    constraints: { name: 'Visible' },
  });

  const random = seededRandom(SEED);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const int = (max: number) => Math.floor(random() * max);
  const randomText = (length: number) =>
    String.fromCodePoint(...Array.from({ length }, () => pick([int(128), 32 + int(95), 0x80 + int(0x2000)])));
  const randomJson = (depth: number): unknown => {
    switch (depth > 3 ? int(4) : int(7)) {
      case 0:
        return null;
      case 1:
        return random() * 2 ** 40 - 2 ** 39;
      case 2:
        return randomText(int(12));
      case 3:
        return random() < 0.5;
      case 4:
        return Array.from({ length: int(4) }, () => randomJson(depth + 1));
      default:
        return Object.fromEntries(
          Array.from({ length: int(4) }, () => [
            pick(['query', 'variables', 'operationName', randomText(3)]),
            randomJson(depth + 1),
          ]),
        );
    }
  };
  const argumentValue = () =>
    pick(['"Visible"', `"${SECRET} site"`, '["1", "2"]', '1', 'true', '"x__y"', '[]', 'null']);
  /** A random walk over the schema: real fields, arguments and fragments on unions, a few levels deep. */
  const selection = (type: GraphQLNamedType, depth: number): string => {
    if (isUnionType(type)) {
      const member = pick(type.getTypes());
      return `{ __typename ... on ${member.name} ${selection(member, depth)} }`;
    }
    const fields = Object.values((type as GraphQLObjectType).getFields());
    const chosen = Array.from({ length: 1 + int(4) }, () => pick(fields));
    return `{ ${chosen.map((field) => fieldText(field, depth)).join(' ')} }`;
  };
  const fieldText = (field: GraphQLField<unknown, unknown>, depth: number): string => {
    const named = getNamedType(field.type);
    const args = field.args.length && random() < 0.5 ? `(${pick(field.args).name}: ${argumentValue()})` : '';
    const limit = isListType(field.type) && field.args.some((a) => a.name === 'limit') ? '(limit: 5)' : '';
    const head = `${field.name}${args || limit}`;
    if (!isObjectType(named) && !isUnionType(named)) return head;
    if (depth >= 4) return `${head} { __typename }`;
    return `${head} ${selection(named, depth + 1)}`;
  };
  const validQuery = () => {
    const root = pick(queryFields);
    const args = root.name.endsWith('_list') ? '(limit: 5)' : `(id: ${pick([visible.id, hidden.id, 1, 2, 3])})`;
    return `{ ${root.name}${args} ${selection(getNamedType(root.type), 1)} }`;
  };
  const mangle = (text: string) => {
    let out = text;
    for (let i = 0, n = 1 + int(4); i < n; i++) {
      const at = int(out.length + 1);
      const edit = int(3);
      if (edit === 0) out = out.slice(0, at) + out.slice(at + 1 + int(3));
      else if (edit === 1) out = out.slice(0, at) + pick(TOKENS) + out.slice(at);
      else out = out.slice(0, at) + out.slice(at, at + int(10)).repeat(2) + out.slice(at + int(10));
    }
    return out;
  };

  const requests: Array<{ kind: string; body?: string; path?: string }> = [];
  for (let i = 0; i < ROUNDS; i++) {
    requests.push({ kind: 'json value', body: JSON.stringify(randomJson(0)) });
    const soup = Array.from({ length: 1 + int(30) }, () => pick(TOKENS)).join(' ');
    requests.push({
      kind: 'token soup',
      body: JSON.stringify({ query: soup, variables: random() < 0.3 ? randomJson(1) : undefined }),
    });
    requests.push({ kind: 'random walk', body: JSON.stringify({ query: validQuery() }) });
    const mangled = mangle(validQuery());
    requests.push(
      random() < 0.3
        ? { kind: 'mangled GET', path: `/graphql/?query=${encodeURIComponent(mangled)}` }
        : {
            kind: 'mangled',
            body: random() < 0.2 ? mangle(JSON.stringify({ query: mangled })) : JSON.stringify({ query: mangled }),
          },
    );
    if (i % 10 === 0) {
      // nesting deep enough to overflow a recursive parser, well under the token limit
      const levels = 50 + int(5000);
      const [open, close, inner] = pick([
        ['site_list { ', ' }', 'id'],
        ['[', ']', '"x"'],
        ['... on SiteType { ', ' }', 'id'],
      ]);
      const query = `{ site_list(name: ${open === '[' ? open.repeat(levels) + inner + close.repeat(levels) : '"x"'}) { ${open === '[' ? 'id' : open.repeat(levels) + inner + close.repeat(levels)} } }`;
      requests.push({ kind: 'deep', body: JSON.stringify({ query }) });
    }
  }

  const statuses = new Map<string, number>();
  let ran = 0;
  for (const request of requests) {
    const response = await fetch(service.url + (request.path ?? '/graphql/'), {
      method: request.body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Token ${viewer.key}`, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: request.body,
    });
    const text = await response.text();
    const label = `${request.kind} (seed ${SEED}): ${(request.body ?? request.path)!.slice(0, 300)}`;
    statuses.set(`${request.kind} ${response.status}`, (statuses.get(`${request.kind} ${response.status}`) ?? 0) + 1);
    t.true([200, 400].includes(response.status), `${response.status} ${text.slice(0, 300)} for ${label}`);
    const body = JSON.parse(text);
    if (response.status === 400) {
      t.false('data' in body, label);
      t.true(Array.isArray(body.errors) && body.errors.length > 0 && typeof body.errors[0].message === 'string', label);
    } else if (body.data) ran++;
    t.false(text.includes(SECRET), `${text.slice(0, 300)} for ${label}`);
  }
  t.deepEqual(errorsLogged, [], 'no resolver failed');
  t.true(ran > ROUNDS / 2, `${ran} queries ran`); // the random walks mostly run
  t.log([...statuses].map(([k, n]) => `${k}: ${n}`).join(', '));

  // still answering, and the visible site is there
  const after = await service.api(
    'POST',
    '/graphql/',
    { query: '{ site_list { name devices { name } } }' },
    { Authorization: `Token ${viewer.key}` },
  );
  t.deepEqual(after.body, { data: { site_list: [{ name: 'Visible', devices: [] }] } });
});
